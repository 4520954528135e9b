package histcheck

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// The Checker reads ops in batches on other cores; under DIALECT=auto the
// answer is settled by the first answered op, which may come after more
// than a batch of unanswered ones (here 503s, not LIMITED_STATUS): those
// must still be read in the settled dialect, not in auto.
func TestCheckerReadsOpsBeforeTheFirstAnswerInItsDialect(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	h := &History{Limit: 2, Window: 10 * time.Second, Profile: profile.SlidingLog, Model: model.SlidingLog{Limit: 2, Window: 10 * time.Second}}
	first := 2*batchSize + 1
	for i := 0; i <= first; i++ {
		hdr := http.Header{}
		st := http.StatusServiceUnavailable
		if i == first {
			st = http.StatusOK
			hdr.Set(dialect.FieldsLimit, "2")
			hdr.Set(dialect.FieldsRemaining, "1")
			hdr.Set(dialect.FieldsReset, "10")
		}
		at := t0.Add(time.Duration(i) * time.Millisecond)
		h.Ops = append(h.Ops, answeredOp(i, at, st, hdr, ""))
	}
	Check(h)
	if h.Answer.Dialect != dialect.Fields || len(h.Notes) != 1 || !strings.Contains(h.Notes[0], "op 2049") {
		t.Fatalf("answer settled as %+v, notes %q: want ratelimit-fields from op 2049", h.Answer, h.Notes)
	}
	for i := range h.Ops {
		if got := h.Ops[i].Ex.Answer.Dialect; got != dialect.Fields {
			t.Fatalf("op %d read as %q, want %q", i, got, dialect.Fields)
		}
	}
}

// answeredOp is op i of key k, answered st with hdr and body 1 ms after at.
func answeredOp(i int, at time.Time, st int, hdr http.Header, body string) Op {
	return Op{Index: i, Bucket: "k", ServerFrom: at, ServerTo: at.Add(time.Millisecond),
		Ex: &httpclient.Exchange{Status: st, RespHeader: hdr, RespBody: []byte(body), Sent: at, Received: at.Add(time.Millisecond)}}
}

// Issue 24 item 13: a header or body deviation is a finding of its own
// class, never an algorithm violation: a sliding log whose every answer
// writes Reset as a date in UTC (read, but a deviation) and whose refusal
// body is not LIMITED_BODY's gives findings and no violation, so the hunt
// goes on hunting the algorithm.
func TestAnswerFindingsAreNotViolations(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	h := &History{Limit: 1, Window: 3 * time.Second, Profile: profile.SlidingLog, Model: model.SlidingLog{Limit: 1, Window: 3 * time.Second},
		Answer: dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetHTTPDate, Body: dialect.JSONBody("/error/code", "RATE_LIMITED")}}
	for i, st := range []int{200, 429} {
		hdr := http.Header{}
		hdr.Set("X-RateLimit-Limit", "1")
		hdr.Set("X-RateLimit-Remaining", "0")
		hdr.Set("X-RateLimit-Reset", t0.Add(3*time.Second).UTC().Format("Mon, 02 Jan 2006 15:04:05 UTC"))
		if st == 429 {
			hdr.Set("Retry-After", "3")
		}
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		h.Ops = append(h.Ops, answeredOp(i, at, st, hdr, "slow down"))
	}
	var findings, violations []Violation
	for _, v := range Check(h) {
		if AnswerClass(v.Class) {
			findings = append(findings, v)
		} else {
			violations = append(violations, v)
		}
	}
	if len(violations) != 0 {
		t.Errorf("algorithm violations from header and body deviations: %v", violations)
	}
	classes := map[Class]bool{}
	for _, f := range findings {
		classes[f.Class] = true
	}
	if !classes[ClassHeaders] || !classes[ClassLimited] {
		t.Errorf("findings %v, want a header and a body finding", findings)
	}
}
