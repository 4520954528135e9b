package bound

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/clause"
)

const ms = int64(time.Millisecond)

// genExchanges draws a history: keys, sends over a few windows, latencies
// from sub-millisecond to seconds, and a decision anywhere inside each
// exchange.
func genExchanges(t *rapid.T, w time.Duration) []exchange {
	keys := rapid.IntRange(1, 3).Draw(t, "keys")
	n := rapid.IntRange(1, 120).Draw(t, "requests")
	horizon := 3 * int64(w)
	start := epoch + rapid.Int64Range(0, int64(w)).Draw(t, "offset")
	xs := make([]exchange, n)
	for i := range xs {
		send := start + rapid.Int64Range(0, horizon).Draw(t, "send")
		lat := rapid.SampledFrom([]int64{0, ms / 2, 5 * ms, 200 * ms, 1500 * ms}).Draw(t, "latency")
		recv := send + lat
		xs[i] = exchange{
			key:  string(rune('a' + rapid.IntRange(0, keys-1).Draw(t, "key"))),
			send: send, recv: recv,
			decd: send + rapid.Int64Range(0, lat).Draw(t, "decision"),
		}
	}
	return xs
}

func grans(t *rapid.T) int64 {
	return rapid.SampledFrom([]int64{1, int64(time.Millisecond), int64(time.Second)}).Draw(t, "granularity")
}

// TestNoFalseVerdicts: a correct limiter, whatever the latencies, decision
// placements and clock granularity, is never reported.
func TestNoFalseVerdicts(t *testing.T) {
	const n, w, tol = 4, 5 * time.Second, DefaultTolerance
	rapid.Check(t, func(t *rapid.T) {
		xs, g := genExchanges(t, w), grans(t)
		sl := run(&slidingLog{n: n, w: int64(w), gran: g, log: map[string][]int64{}}, xs)
		if vs := SlidingLog(sl, n, w, tol); len(vs) > 0 {
			t.Fatalf("correct sliding log reported: %v", vs[0])
		}
		if vs := OverBlocking(sl, n, w, tol); len(vs) > 0 {
			t.Fatalf("correct sliding log reported as over-blocking: %v", vs[0])
		}
		ep := run(&epochWindow{n: n, w: int64(w), gran: g, count: map[string]map[int64]int{}}, xs)
		if vs := EpochWindows(ep, n, w, tol); len(vs) > 0 {
			t.Fatalf("correct epoch window reported: %v", vs[0])
		}
		if _, vs := Burst(ep, 2*n, w, tol); len(vs) > 0 {
			t.Fatalf("correct epoch window reported a burst: %v", vs[0])
		}
		fr := run(&firstRequest{n: n, w: int64(w), gran: g, start: map[string]int64{}, used: map[string]int{}}, xs)
		if vs := FirstWindow(fr, n, w, tol); len(vs) > 0 {
			t.Fatalf("correct first-request window reported: %v", vs[0])
		}
		if _, vs := Burst(fr, 2*n-1, w, tol); len(vs) > 0 {
			t.Fatalf("correct first-request window reported a burst: %v", vs[0])
		}
	})
}

// tightBurst is n+1 requests of one key, sent 10 ms apart with 1 ms
// latency, starting 1.5 s after a window boundary (beyond the tolerance).
func tightBurst(n int, w time.Duration) []exchange {
	start := (epoch/int64(w)+1)*int64(w) + 1500*ms
	xs := make([]exchange, n+1)
	for i := range xs {
		s := start + int64(i)*10*ms
		xs[i] = exchange{key: "k", send: s, recv: s + ms, decd: s}
	}
	return xs
}

// TestTeeth: one request too many in a tight burst is caught by every
// bound, with the proving requests.
func TestTeeth(t *testing.T) {
	const n, w, tol = 4, 5 * time.Second, DefaultTolerance
	xs := tightBurst(n, w)
	check := func(name string, vs []Violation, id clause.ID) {
		t.Helper()
		if len(vs) != 1 || vs[0].Clause != id || len(vs[0].Events) != n+1 {
			t.Fatalf("%s: %d violations %v; want one %s with %d events", name, len(vs), vs, id, n+1)
		}
		if !strings.Contains(vs[0].String(), "#4 allowed=true") {
			t.Errorf("%s: evidence does not list the requests: %s", name, vs[0])
		}
	}
	check("sliding log", SlidingLog(run(&overAllow{&slidingLog{n: n, w: int64(w), gran: 1, log: map[string][]int64{}}, map[string]bool{}}, xs), n, w, tol), clause.SL1)
	check("epoch", EpochWindows(run(&overAllow{&epochWindow{n: n, w: int64(w), gran: 1, count: map[string]map[int64]int{}}, map[string]bool{}}, xs), n, w, tol), clause.FW1)
	check("first request", FirstWindow(run(&overAllow{&firstRequest{n: n, w: int64(w), gran: 1, start: map[string]int64{}, used: map[string]int{}}, map[string]bool{}}, xs), n, w, tol), clause.FW1)
	var all []Event
	for i, x := range append(xs, tightBurst(n, w)...) {
		all = append(all, Event{ID: i, Key: x.key, Send: x.send, Recv: x.recv, Allowed: true})
	}
	largest, vs := Burst(all, 2*n-1, w, tol)
	if largest != 2*n+2 || len(vs) != 1 || vs[0].Clause != clause.FW2 {
		t.Errorf("burst of %d allowed: largest %d, violations %v", 2*n+2, largest, vs)
	}
}

// TestUndecidableIsNotReported: n+1 allowed whose exchanges span more than
// w − tol (a slow response) could have been decided in two windows.
func TestUndecidableIsNotReported(t *testing.T) {
	const n, w, tol = 4, 5 * time.Second, DefaultTolerance
	xs := tightBurst(n, w)
	xs[n].recv = xs[0].send + int64(w-tol) + ms // the last answer came late
	var es []Event
	for i, x := range xs {
		es = append(es, Event{ID: i, Key: x.key, Send: x.send, Recv: x.recv, Allowed: true})
	}
	if vs := SlidingLog(es, n, w, tol); len(vs) != 0 {
		t.Fatalf("reported though a placement satisfies the bound: %v", vs[0])
	}
	es[n].Recv = xs[0].send + int64(w-tol) // exactly w − tol: every placement fits one window
	if vs := SlidingLog(es, n, w, tol); len(vs) != 1 {
		t.Fatal("not reported at exactly w − tol")
	}
}

// TestOverBlockingTeeth: a limiter that also logs refused requests (spec/002's
// bug) keeps refusing a key whose allowed requests have left the window.
func TestOverBlockingTeeth(t *testing.T) {
	const n, w, tol = 2, 3 * time.Second, DefaultTolerance
	var es []Event
	at := epoch
	add := func(allowed bool) {
		es = append(es, Event{ID: len(es), Key: "k", Send: at, Recv: at + ms, Allowed: allowed})
		at += 500 * ms
	}
	add(true)
	add(true)
	for range 12 { // refused every 500 ms for 6 s: the allowed ones left the window at +3 s
		add(false)
	}
	vs := OverBlocking(es, n, w, tol)
	if len(vs) != 1 || vs[0].Clause != clause.SL4 {
		t.Fatalf("over-blocking not caught: %v", vs)
	}
	if !strings.Contains(vs[0].Detail, "at most 1 allowed") && !strings.Contains(vs[0].Detail, "at most 0 allowed") {
		t.Errorf("detail: %s", vs[0].Detail)
	}
}
