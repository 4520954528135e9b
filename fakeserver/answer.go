package fakeserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/reference"
)

// IETFPolicy names the one quota policy of the IETF fields.
const IETFPolicy = dialect.IETFPolicyName

// RefusalBody is how the server writes a refusal's body (RL_LIMITED_BODY).
type RefusalBody string

// The refusal bodies: the profile's JSON (spec/001's or spec/002's), the
// text "Too Many Requests", or none.
const (
	RefusalJSON  RefusalBody = "json"
	RefusalText  RefusalBody = "text"
	RefusalEmpty RefusalBody = "empty"
)

// ParseRefusalBody reads RL_LIMITED_BODY: json (or ""), text or empty.
func ParseRefusalBody(s string) (RefusalBody, error) {
	switch b := RefusalBody(strings.ToLower(strings.TrimSpace(s))); b {
	case "", RefusalJSON:
		return RefusalJSON, nil
	case RefusalText, RefusalEmpty:
		return b, nil
	}
	return "", fmt.Errorf("%q is none of json, text, empty", s)
}

// ParseAnswerDialect reads RL_DIALECT: the one dialect the server answers
// in (x-ratelimit by default; auto is rlspec's, not a server's).
func ParseAnswerDialect(s string) (dialect.Dialect, error) {
	d, err := dialect.ParseDialect(s)
	if err == nil && d == dialect.Auto {
		err = fmt.Errorf("%q is rlspec's detection, not a way to answer: name a dialect", s)
	}
	return d, err
}

// Answers is how the server answers: Answer with its defaults (x-ratelimit,
// Reset in unix seconds, 429).
func (c Config) Answers() dialect.Settings {
	a := c.Answer
	if !a.Dialect.Concrete() {
		a.Dialect = dialect.XRateLimit
	}
	if !a.ResetFormat.Concrete() {
		a.ResetFormat = dialect.ResetUnix
	}
	return a
}

// quotaFields writes a decision's quota in the server's dialect, and the
// IETF fields beside it when IETF is set (feature ietf-headers).
func (s *Server) quotaFields(h http.Header, d reference.Decision, window time.Duration) {
	a := s.cfg.Answers()
	q := dialect.Quota{Limit: int64(d.Limit), Remaining: int64(d.Remaining), Reset: time.Unix(d.Reset, 0), Window: window, Now: s.cfg.ClockOrWall().Now()}
	if err := a.Write(h, q); err != nil {
		s.log.Error("rate-limit fields", "err", err)
	}
	if s.cfg.IETF && a.Dialect != dialect.IETF {
		if err := (dialect.Settings{Dialect: dialect.IETF}).Write(h, q); err != nil {
			s.log.Error("ietf fields", "err", err)
		}
	}
}

// refuse writes a refusal: Retry-After, LIMITED_STATUS and the body
// RL_LIMITED_BODY names (jsonBody for json).
func (s *Server) refuse(w http.ResponseWriter, d reference.Decision, jsonBody []byte) {
	w.Header().Set("Retry-After", strconv.FormatInt(d.RetryAfter, 10))
	status := s.cfg.Answers().Status()
	switch s.cfg.RefusalBody {
	case RefusalText:
		body := []byte(http.StatusText(http.StatusTooManyRequests) + "\n")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body)
	case RefusalEmpty:
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(status)
	default:
		writeJSON(w, status, jsonBody)
	}
}

// answerFromEnv reads RL_DIALECT, RL_RESET_FORMAT, RL_HEADER_PREFIX,
// RL_LIMITED_STATUS, RL_LIMITED_BODY and RL_IETF_FIELDS.
func (c *Config) answerFromEnv(get func(string) (string, bool)) error {
	return readEnv(get, []envVar{
		{"RL_DIALECT", func(s string) (err error) { c.Answer.Dialect, err = ParseAnswerDialect(s); return err }},
		{"RL_RESET_FORMAT", func(s string) (err error) { c.Answer.ResetFormat, err = dialect.ParseResetFormat(s); return err }},
		{"RL_HEADER_PREFIX", func(s string) (err error) { c.Answer.Prefix, err = dialect.ParsePrefix(s); return err }},
		{"RL_LIMITED_STATUS", func(s string) (err error) { c.Answer.LimitedStatus, err = dialect.ParseLimitedStatus(s); return err }},
		{"RL_LIMITED_BODY", func(s string) (err error) { c.RefusalBody, err = ParseRefusalBody(s); return err }},
		{"RL_IETF_FIELDS", func(s string) (err error) { c.IETF, err = strconv.ParseBool(s); return err }},
	})
}
