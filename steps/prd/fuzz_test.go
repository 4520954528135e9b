package prd

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// FuzzResponseChecks feeds arbitrary responses (status, rate-limit headers,
// body) to the Then steps that read responses: none may panic, and every
// complaint about a response is a *scenario.Violation naming a clause.
func FuzzResponseChecks(f *testing.F) {
	f.Add(200, "500", "499", "1767225600", "", []byte(`{"status":"accepted"}`))
	f.Add(429, "500", "0", "1767225600", "60", []byte(`{"error":"rate_limited"}`))
	f.Add(429, "500", "-1", "soon", "Wed, 21 Oct 2015 07:28:00 GMT", []byte(`<html>429</html>`))
	f.Add(500, "", "", "", "", []byte{})
	f.Add(400, "5.0", "1e3", "99999999999999999999", "-5", []byte(`{"error":`))
	f.Fuzz(func(t *testing.T, status int, limit, remaining, reset, retry string, body []byte) {
		lim := steptest.NewLimiter(500)
		s := newTestScenario(t, lim)
		// As a run reads them: the PRD's dialect, x-ratelimit with Reset in
		// unix seconds (FR-7), not the unset settings' lenient reading.
		s.Env().Config = s.Env().Config.ForProfile(profile.PRD)
		now := time.Now()
		h := http.Header{}
		for k, v := range map[string]string{dialect.HeaderLimit: limit, dialect.HeaderRemaining: remaining, dialect.HeaderReset: reset, dialect.HeaderRetryAfter: retry} {
			if v != "" {
				h.Set(k, v)
			}
		}
		first := &httpclient.Exchange{Method: "POST", Status: 200, RespBody: []byte(`{}`), Sent: now, Received: now,
			RespHeader: http.Header{dialect.HeaderLimit: {"500"}, dialect.HeaderRemaining: {"499"}, dialect.HeaderReset: {"1767225600"}}}
		ex := &httpclient.Exchange{Method: "POST", Status: status, RespHeader: h, RespBody: body, Sent: now, Received: now}
		first.Answer, ex.Answer = s.Env().Config.Answer(), s.Env().Config.Answer() // as the client stamps them
		s.Bucket.First = first
		s.Last = scenario.Last{Ex: ex, Keyed: first}
		s.Batch = scenario.Batch{Exchanges: []*httpclient.Exchange{ex, first}, Sent: 2, Left: 1, Rounds: [][]*httpclient.Exchange{{ex}}}
		checks := map[string]func() error{
			"validHeaders":  func() error { return s.validHeaders(ex) },
			"remainingIs":   func() error { return s.remainingIs(0, "") },
			"limit":         s.limitIsConfigured,
			"resetAbout":    s.resetAboutNowPlusWindow,
			"resetSame":     s.resetSameAsFirst,
			"jsonError":     func() error { return s.bodyIsJSONError("rate_limited") },
			"retryAfter":    s.retryAfter,
			"replayMatches": s.replayMatches,
			"notCached":     s.notCached,
			"no5xx":         s.no5xx,
			"exactly":       s.exactlyMinNQ,
			"boundary":      s.boundaryOnce,
			"is4xxJSON":     s.is4xxJSON,
		}
		for name, check := range checks {
			err := check()
			var v *scenario.Violation
			if err != nil && !errors.As(err, &v) {
				t.Fatalf("%s: %T %v, want nil or *scenario.Violation", name, err, err)
			}
			if v != nil && (len(v.Clause) == 0 || v.Expected == "" || v.Actual == "") {
				t.Fatalf("%s: incomplete violation %+v", name, v)
			}
		}
		if s.validHeaders(ex) == nil {
			rl, err := dialect.ParseRateLimit(h)
			if err != nil || rl.Limit != 500 || rl.Remaining > rl.Limit {
				t.Fatalf("validHeaders accepted %v (%+v, %v)", h, rl, err)
			}
		}
	})
}
