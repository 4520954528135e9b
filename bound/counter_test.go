package bound

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/model"
)

// swcHistory: N = 5, W = 10 s; five allowed in the previous window, then
// `before` allowed early in the next one and one more at s + 4 s, each
// answered within 1 ms.
func swcHistory(before int) []Event {
	W := int64(10 * time.Second)
	s := (epoch/W + 1) * W
	var es []Event
	add := func(at int64) {
		es = append(es, Event{ID: len(es), Key: "k", Send: at, Recv: at + ms, Allowed: true})
	}
	for i := range 5 {
		add(s - 5*int64(time.Second) + int64(i)*ms)
	}
	for i := range before {
		add(s + 1500*ms + int64(i)*ms)
	}
	add(s + 4*int64(time.Second))
	return es
}

// A fixed window in disguise: four allowed at s + 1.5 s, decided by s +
// 2.5 s (1 s of tolerance), weigh the previous window's five at 0.75 at
// least: whichever of them is decided last finds e ≥ 3.75 + 3 = 6.75 ≥
// N + 1 wherever the decisions lie, though each alone, placed first, finds
// 3.75. With three it is 5.75 at most, and at s + 4 s the weighted
// previous window is at least 2.5 and the three make 5.5 — within the
// tolerance — and no violation.
func TestWindowCounterWeightedBound(t *testing.T) {
	vs := WindowCounter(swcHistory(4), 5, 10*time.Second, DefaultTolerance)
	if len(vs) != 1 || vs[0].Clause != clause.SWC2 || !strings.Contains(vs[0].String(), "4 requests were allowed in one window with 5") {
		t.Fatalf("four before: %v", vs)
	}
	if vs := WindowCounter(swcHistory(3), 5, 10*time.Second, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("three before: %v", vs)
	}
	// Refused requests count for nothing; another key is another counter.
	es := swcHistory(3)
	for i := range 4 {
		es = append(es, Event{ID: 100 + i, Key: "k", Send: es[5].Send, Recv: es[5].Recv}, Event{ID: 200 + i, Key: "other", Send: es[5].Send, Recv: es[5].Recv, Allowed: true})
	}
	if vs := WindowCounter(es, 5, 10*time.Second, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("refusals and another key counted: %v", vs)
	}
	// Requests whose intervals straddle a window's start are counted in
	// neither: a slow answer cannot make a violation.
	slow := swcHistory(4)
	for i := 5; i < 9; i++ {
		slow[i].Send -= 3 * int64(time.Second)
	}
	if vs := WindowCounter(slow, 5, 10*time.Second, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("straddling requests counted: %v", vs)
	}
}

// No false verdicts: histories of the sliding-window counter itself, each
// decision anywhere inside its exchange, latencies up to 1.5 s, are never
// a violation, with or without a tolerance; those of a fixed window on
// the same grid are, often, where the clock is exact (a tolerance of 1 s
// hides the bursts of a window's first second).
func TestWindowCounterNoFalseVerdicts(t *testing.T) {
	caught := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 3))
		n, w := 1+r.IntN(8), time.Duration(2+r.IntN(8))*time.Second
		for _, fixed := range []bool{false, true} {
			var m model.Model = model.WindowCounter{Limit: n, Window: w}
			if fixed {
				m = model.Epoch{Limit: n, Window: w}
			}
			es := simulate(r, m, 400, w/time.Duration(2*n))
			for _, tol := range []time.Duration{0, DefaultTolerance} {
				vs := WindowCounter(es, n, w, tol)
				switch {
				case !fixed && len(vs) > 0:
					t.Fatalf("seed %d (N %d, W %v, tolerance %v): a correct counter reported: %v", seed, n, w, tol, vs[0])
				case fixed && len(vs) > 0 && tol == 0:
					caught++
				}
			}
		}
	}
	if caught < 20 {
		t.Fatalf("a fixed window was caught in %d of 200 histories", caught)
	}
	t.Logf("a fixed window caught in %d of 200 histories", caught)
}

// simulate runs m over requests of one key arriving about every gap (a
// third of them in bursts), each decided at a random instant inside an
// exchange of up to 1.5 s; the decision times ascend as the requests' do.
func simulate(r *rand.Rand, m model.Model, count int, gap time.Duration) []Event {
	var st model.State
	at := epoch + r.Int64N(int64(10*time.Second))
	var es []Event
	last := int64(0)
	for i := range count {
		if r.IntN(3) > 0 {
			at += r.Int64N(int64(2*gap) + 1)
		}
		lat := []int64{0, ms, 50 * ms, 1500 * ms}[r.IntN(4)]
		dec := max(at+r.Int64N(lat+1), last)
		last = dec
		var d model.Decision
		st, d = m.Step(st, model.Request{Cost: 1}, time.Unix(0, dec))
		es = append(es, Event{ID: i, Key: "k", Send: at, Recv: max(at+lat, dec), Allowed: d.Allowed})
	}
	return es
}

// Soundness on small histories: whenever WindowCounter reports request j,
// every placement of the decisions (on a 100 ms grid inside each exchange)
// gives j an estimate of at least N + 1 — checked by brute force.
func TestWindowCounterSoundByBruteForce(t *testing.T) {
	const step = 100 * ms
	W := int64(time.Second)
	reported, groups := 0, 0
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 1 + r.IntN(3)
		es := make([]Event, 2+r.IntN(5))
		base := (epoch / W) * W
		for i := range es {
			send := base + r.Int64N(20)*step
			es[i] = Event{ID: i, Key: "k", Send: send, Recv: send + r.Int64N(3)*step, Allowed: r.IntN(5) > 0}
		}
		vs := WindowCounter(es, n, time.Second, 0)
		if len(vs) == 0 {
			continue
		}
		reported++
		times := make([]int64, len(es))
		visit(es, times, step, func() {
			if !strings.Contains(vs[0].Detail, "request #") {
				groups++
				if !someoneOver(es, times, n, W) {
					t.Fatalf("seed %d: reported %v, yet placing the decisions at %v gives every allowed request e < N + 1", seed, vs[0], times)
				}
				return
			}
			for _, e := range es { // j is the request the detail names
				if strings.Contains(vs[0].Detail, fmt.Sprintf("#%d ", e.ID)) {
					if eW := estimateW(es, times, e.ID, W, false); eW < int64(n+1)*W {
						t.Fatalf("seed %d: reported %v, yet placing the decisions at %v gives e·W = %d < (N+1)·W", seed, vs[0], times, eW)
					}
				}
			}
		})
	}
	if reported < 50 || groups == 0 {
		t.Fatalf("only %d of 3000 small histories reported (%d placements judged by a group): the check is not exercised", reported, groups)
	}
}

// visit calls f with times set to every placement of es's decisions on a
// grid of step inside their exchanges.
func visit(es []Event, times []int64, step int64, f func()) {
	var place func(i int)
	place = func(i int) {
		if i == len(es) {
			f()
			return
		}
		for at := es[i].Send; at <= es[i].Recv; at += step {
			times[i] = at
			place(i + 1)
		}
	}
	place(0)
}

// estimateW is e·W of request j with the decisions at times: p of the
// previous window weighted by what is left of j's, and c of j's own
// before it (with ties, those of a lower index too: one order of them).
func estimateW(es []Event, times []int64, j int, W int64, ties bool) int64 {
	tj := times[j]
	k := floorDiv(tj, W)
	p, c := 0, 0
	for x, e := range es {
		if !e.Allowed || x == j {
			continue
		}
		switch kx := floorDiv(times[x], W); {
		case kx == k-1:
			p++
		case kx == k && (times[x] < tj || ties && times[x] == tj && x < j):
			c++
		}
	}
	return int64(p)*((k+1)*W-tj) + int64(c)*W
}

// someoneOver: with the decisions at times, some allowed request finds
// e ≥ N + 1.
func someoneOver(es []Event, times []int64, n int, W int64) bool {
	for j, e := range es {
		if e.Allowed && estimateW(es, times, j, W, true) >= int64(n+1)*W {
			return true
		}
	}
	return false
}
