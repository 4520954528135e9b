package fakeserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// The server answers in every dialect and RESET_FORMAT it is given, and
// each answer reads back (named and auto-detected) as the decision: Limit
// 3, Remaining 2, Reset at the sliding log's t0 + 10 s.
func TestAnswersInEveryDialect(t *testing.T) {
	var answers []dialect.Settings
	for _, f := range dialect.WrittenResetFormats() {
		answers = append(answers, dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: f})
	}
	answers = append(answers, dialect.Settings{Dialect: dialect.XRateLimit, Prefix: "X-Rate-Limit-"},
		dialect.Settings{Dialect: dialect.Fields}, dialect.Settings{Dialect: dialect.Dict}, dialect.Settings{Dialect: dialect.IETF})
	for _, a := range answers {
		s := newTest(t, func(c *Config) { c.Profile, c.Limit, c.Window, c.Answer = profile.SlidingLog, 3, 10*time.Second, a })
		w := s.do(get("alice"))
		r := dialect.Response{Status: w.Code, Header: w.Header(), Received: s.clk.Now()}
		for _, read := range []dialect.Settings{a, {Prefix: a.Prefix}} {
			o := read.Read(r)
			if o.Err != nil || o.Dialect != a.Dialect || o.Limit != 3 || o.Remaining != 2 || !o.Reset.Equal(t0.Add(10*time.Second)) {
				t.Errorf("%+v read as %+v: %+v", a, read, o)
			}
		}
	}
	s := newTest(t, func(c *Config) {
		c.Profile, c.Limit, c.Window, c.Answer = profile.SlidingLog, 3, 10*time.Second, dialect.Settings{Dialect: dialect.Status}
	})
	if w := s.do(get("alice")); len(w.Header().Values("X-RateLimit-Limit"))+len(w.Header().Values("RateLimit")) != 0 {
		t.Errorf("status dialect sent fields: %v", w.Header())
	}
}

// A refusal has the LIMITED_STATUS and body asked for: text, empty or the
// profile's JSON; Retry-After in each.
func TestRefusalStatusAndBody(t *testing.T) {
	for body, match := range map[RefusalBody]string{RefusalText: "text:^Too Many Requests\n$", RefusalEmpty: "text:^$", RefusalJSON: "/error/code=RATE_LIMITED"} {
		s := newTest(t, func(c *Config) {
			c.Profile, c.Limit, c.Window, c.RefusalBody = profile.SlidingLog, 1, 10*time.Second, body
			c.Answer.LimitedStatus = http.StatusServiceUnavailable
		})
		s.do(get("alice"))
		w := s.do(get("alice"))
		b, err := dialect.ParseBody(match)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Check(w.Body.Bytes()); w.Code != http.StatusServiceUnavailable || err != nil || w.Header().Get("Retry-After") != "10" {
			t.Errorf("%s refusal: %d %q %v", body, w.Code, w.Body, err)
		}
	}
}

// RL_DIALECT and its companions are read from the environment; auto and
// bad values are refused with the variable named.
func TestAnswerFromEnv(t *testing.T) {
	env := map[string]string{"RL_DIALECT": "x-ratelimit", "RL_RESET_FORMAT": "delta", "RL_HEADER_PREFIX": "X-Rate-Limit-", "RL_LIMITED_STATUS": "503", "RL_LIMITED_BODY": "text", "RL_IETF_FIELDS": "true"}
	c, err := ConfigFromEnv(envflag.Map(env))
	if a := c.Answer; err != nil || a.Dialect != dialect.XRateLimit || a.ResetFormat != dialect.ResetDelta || a.Prefix != "X-Rate-Limit-" || a.LimitedStatus != 503 || c.RefusalBody != RefusalText || !c.IETF {
		t.Fatalf("%+v %v", c, err)
	}
	for k, v := range map[string]string{"RL_DIALECT": "auto", "RL_RESET_FORMAT": "iso", "RL_LIMITED_STATUS": "200", "RL_LIMITED_BODY": "html"} {
		if _, err := ConfigFromEnv(func(key string) (string, bool) { return v, key == k }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
}
