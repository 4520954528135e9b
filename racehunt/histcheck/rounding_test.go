package histcheck

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// A sliding-window counter may round its estimate either way (SWC-6:
// Remaining = N − ⌈e⌉ ±1). Fiber v2.52.15 floors the previous window's
// weighted count and weighs it by whole seconds left
// (middleware/limiter/limiter_sliding.go:79-88): one key's history from
// its interop run (2026-11-27), windows of 5 s on the key's grid. Its
// third request, a second before the second window ends, found e =
// 1·(0.75/5) + 2 = 2.15 by the model (Remaining 2) and int(1·1/5) + 2 = 2
// by Fiber (Remaining 3). The race checker read Remaining exactly and
// called the history not linearizable; the counter is the profile's.
func TestWindowCounterRemainingRoundedEitherWay(t *testing.T) {
	t0 := time.Unix(1_795_740_697, 300_000_000)
	m := model.WindowCounter{Limit: 5, Window: 5 * time.Second, CountsRefused: true, KeyGrid: true}
	h := &History{Limit: 5, Window: 5 * time.Second, Profile: profile.SlidingWindowCounter, Model: m,
		Answer: dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetDelta}}
	for i, op := range []struct {
		atMs      int // send, relative to t0; answered 0.5 ms later
		rem, left int // X-RateLimit-Remaining, X-RateLimit-Reset (seconds left)
	}{{0, 4, 5}, {4997, 3, 5}, {8997, 3, 1}, {8998, 2, 1}} {
		hdr := http.Header{}
		hdr.Set("X-RateLimit-Limit", "5")
		hdr.Set("X-RateLimit-Remaining", strconv.Itoa(op.rem))
		hdr.Set("X-RateLimit-Reset", strconv.Itoa(op.left))
		o := answeredOp(i, t0.Add(time.Duration(op.atMs)*time.Millisecond), http.StatusOK, hdr, "ok")
		o.Burst = i
		h.Ops = append(h.Ops, o)
	}
	for _, v := range Check(h) {
		t.Errorf("violation: %v", v)
	}
	if r := Linearizable(h, 10*time.Second); r.Result != porcupine.Ok {
		t.Errorf("linearizability %v, want ok: Remaining one off is the clause's ±1", r.Result)
	}
}
