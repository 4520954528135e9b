package bound

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// windowCounter is model.WindowCounter (the epoch's grid) as a limiter;
// keyGrid anchors each key's grid at its first request instead.
type windowCounter struct {
	m       model.WindowCounter
	keyGrid bool
	st      map[string]model.State
	anchor  map[string]int64
}

func (l *windowCounter) allow(key string, at int64) bool {
	if _, ok := l.anchor[key]; !ok {
		l.anchor[key] = at
	}
	if l.keyGrid {
		at += 1_000_000*int64(l.m.Window) - l.anchor[key] // a grid boundary at the anchor
	}
	next, d := l.m.Step(l.st[key], model.Request{Cost: 1}, time.Unix(0, at))
	l.st[key] = next
	return d.Allowed
}

// phaseTraffic is SL-1-02's traffic (steps/slidinglog/slphases.go) with a fixed
// latency: three keys send one request each from t0; W + 1 s after the last
// came back, key j sends N one after another at j·W/3, then one every tick
// while the next goes out before its burst's first send + W − 1 s − tick.
// It returns the exchanges and the spans the scenario's assumption covers.
func phaseTraffic(t0 int64, n int, w, lat time.Duration) ([]exchange, []Span) {
	W, L := int64(w), int64(lat)
	span, tick := W-int64(DefaultTolerance), max(min(W/30, int64(time.Second)), 100*ms)
	var xs []exchange
	send := func(key string, at int64) exchange {
		x := exchange{key: key, send: at, recv: at + L, decd: at + L/2}
		xs = append(xs, x)
		return x
	}
	clock := t0
	for j := range 3 {
		clock = send(fmt.Sprint(j), clock).recv
	}
	var spans []Span
	for j := range 3 {
		key, at := fmt.Sprint(j), clock+W+int64(time.Second)+int64(j)*W/3
		first := send(key, at)
		last := first
		for range n - 1 {
			last = send(key, last.recv)
		}
		sp := Span{From: first.recv}
		for next := last.recv; next < first.send+span-tick; next += tick {
			p := send(key, max(next, last.recv))
			if p.recv <= first.send+span {
				sp.To = p.send
			}
			last = p
		}
		spans = append(spans, sp)
	}
	return xs, spans
}

// SL-1-02's design: at every phase of the grid, with latencies up to 60 ms,
// the traffic covers every phase of W, SL-1's checker catches a weighted
// counter on the epoch's grid and on a grid anchored at each key's first
// request, and reports nothing against a sliding log.
func TestPhaseTrafficCatchesGridCounters(t *testing.T) {
	const n, w = 5, 3 * time.Second
	for _, lat := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond} {
		for off := time.Duration(0); off < w; off += 37 * time.Millisecond {
			xs, spans := phaseTraffic(epoch+int64(off), n, w, lat)
			if gap := Uncovered(spans, w); gap > 0 {
				t.Fatalf("latency %v, offset %v: %v of W uncovered", lat, off, gap)
			}
			sl := run(&slidingLog{n: n, w: int64(w), gran: 1, log: map[string][]int64{}}, xs)
			if vs := SlidingLog(sl, n, w, DefaultTolerance); len(vs) > 0 {
				t.Fatalf("latency %v, offset %v: a sliding log reported: %v", lat, off, vs[0])
			}
			for _, keyGrid := range []bool{false, true} {
				c := &windowCounter{m: model.WindowCounter{Limit: n, Window: w}, keyGrid: keyGrid, st: map[string]model.State{}, anchor: map[string]int64{}}
				if vs := SlidingLog(run(c, xs), n, w, DefaultTolerance); len(vs) == 0 {
					t.Fatalf("latency %v, offset %v, key grid %v: the counter passed", lat, off, keyGrid)
				}
			}
		}
	}
}
