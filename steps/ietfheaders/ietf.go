package ietfheaders

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerIETF registers the check of feature ietf-headers (IETF-1).
func (s *state) registerIETF(sc scenario.Stepper) {
	sc.Step(`^every response carried valid IETF fields with q N, w W, r as Remaining and t as Reset minus now$`, s.ietfFields)
}

// ietfFields is IETF-1 on every exchange of the key: both fields parse
// (package ietf, strict where the draft says MUST), q = N and w = W, t in
// [0, W + 1 s], r = 0 on a 429; beside X-RateLimit-* headers r equals
// Remaining and received + t equals Reset within 1 s.
func (s *state) ietfFields() error {
	if err := s.Env().Claimed(profile.IETFHeaders); err != nil {
		return err
	}
	var exs []*httpclient.Exchange
	for _, run := range s.Key.Runs {
		exs = append(exs, run...)
	}
	if s.Last.Ex != nil && (len(exs) == 0 || exs[len(exs)-1] != s.Last.Ex) {
		exs = append(exs, s.Last.Ex)
	}
	w := int64(s.Window() / time.Second)
	for _, ex := range exs {
		f, err := dialect.ReadIETF(ex.RespHeader)
		if err == nil {
			err = f.Match(s.Limit(), s.Window())
		}
		if err != nil {
			return scenario.Violate(clause.Of(clause.IETF1), "RateLimit-Policy and RateLimit", fmt.Sprintf("valid fields with q=%d, w=%d", s.Limit(), w), err.Error(), ex)
		}
		if t := f.Limit.Reset; t < 0 || t > w+1 {
			return scenario.Violate(clause.Of(clause.IETF1), "RateLimit's t", fmt.Sprintf("seconds until more quota, in [0, %d]", w+1), fmt.Sprintf("t=%d", t), ex)
		}
		if ex.Refused() && f.Limit.Remaining != 0 {
			return scenario.Violate(clause.Of(clause.IETF1), "RateLimit's r on a 429", "0", fmt.Sprintf("r=%d", f.Limit.Remaining), ex)
		}
		x, err := s.beside(ex)
		if err != nil {
			continue // the ietf dialect alone: the profile's checks read r and t
		}
		if f.Limit.Remaining != x.Remaining {
			return scenario.Violate(clause.Of(clause.IETF1), "RateLimit's r", fmt.Sprintf("X-RateLimit-Remaining %d", x.Remaining), fmt.Sprintf("r=%d", f.Limit.Remaining), ex)
		}
		if at := f.Reset(ex.Received); at < x.Reset-1 || at > x.Reset+1 || f.Reset(ex.Sent) < x.Reset-1 {
			return scenario.Violate(clause.Of(clause.IETF1), "RateLimit's t", fmt.Sprintf("X-RateLimit-Reset %d − now (±1 s)", x.Reset), fmt.Sprintf("t=%d", f.Limit.Reset), ex)
		}
	}
	return nil
}

// beside reads the x-ratelimit headers an ietf-headers target sends beside
// the IETF fields (with HEADER_PREFIX and RESET_FORMAT as configured).
func (s *state) beside(ex *httpclient.Exchange) (dialect.RateLimit, error) {
	a := s.Env().Config.Answer()
	x := *ex
	x.Answer = dialect.Settings{Dialect: dialect.XRateLimit, Prefix: a.Prefix}
	if a.Dialect == dialect.XRateLimit {
		x.Answer.ResetFormat = a.ResetFormat
	}
	return x.RateLimit()
}
