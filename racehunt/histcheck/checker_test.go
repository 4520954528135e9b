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
		h.Ops = append(h.Ops, Op{Index: i, Bucket: "k", ServerFrom: at, ServerTo: at.Add(time.Millisecond),
			Ex: &httpclient.Exchange{Status: st, RespHeader: hdr, Sent: at, Received: at.Add(time.Millisecond)}})
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
