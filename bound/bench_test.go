package bound

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// history1M is 1,000,000 exchanges over keys, 1 ms apart per key stream
// with 0–5 ms latency, half allowed.
func history1M(keys int) []Event {
	r := rand.New(rand.NewPCG(1, 2))
	es := make([]Event, 1_000_000)
	for i := range es {
		send := epoch + int64(i)*int64(time.Millisecond)/int64(keys)*int64(keys)
		es[i] = Event{ID: i, Key: fmt.Sprintf("k%d", i%keys), Send: send, Recv: send + r.Int64N(5*ms), Allowed: i%2 == 0}
	}
	return es
}

// BenchmarkCheckers checks a 1,000,000-exchange history (target: under 2 s
// per check), on one key and spread over 1,000 keys:
//
//	go test -run '^$' -bench Checkers -benchtime 3x ./bound
func BenchmarkCheckers(b *testing.B) {
	const n, w, tol = 100, 10 * time.Second, DefaultTolerance
	for _, keys := range []int{1, 1000} {
		es := history1M(keys)
		checks := []struct {
			name string
			fn   func([]Event)
		}{
			{"SlidingLog", func(es []Event) { SlidingLog(es, n, w, tol) }},
			{"EpochWindows", func(es []Event) { EpochWindows(es, n, w, tol) }},
			{"FirstWindow", func(es []Event) { FirstWindow(es, n, w, tol) }},
			{"Burst", func(es []Event) { Burst(es, 2*n, w, tol) }},
			{"OverBlocking", func(es []Event) { OverBlocking(es, n, w, tol) }},
			{"TokenBucket", func(es []Event) { TokenBucket(es, n, 10, tol) }},
			{"WindowCounter", func(es []Event) { WindowCounter(es, n, w, tol) }},
			{"LeakyBucket", func(es []Event) { LeakyBucket(es, 0, 10, tol) }},
		}
		for _, c := range checks {
			b.Run(fmt.Sprintf("%s/keys=%d", c.name, keys), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c.fn(es)
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/1M-history")
			})
		}
	}
}

// BenchmarkNewCheckersClean checks the same 1,000,000-exchange histories
// with bounds they meet, so that no key stops at its first violation and
// every request is swept (the worst case):
//
//	go test -run '^$' -bench NewCheckersClean -benchtime 3x ./bound
func BenchmarkNewCheckersClean(b *testing.B) {
	for _, keys := range []int{1, 1000} {
		es := history1M(keys)
		for _, c := range []struct {
			name string
			fn   func([]Event) []Violation
		}{
			{"WindowCounter", func(es []Event) []Violation { return WindowCounter(es, 1_000_000, 10*time.Second, DefaultTolerance) }},
			{"LeakyBucket", func(es []Event) []Violation { return LeakyBucket(es, 0, 1e6, DefaultTolerance) }},
		} {
			b.Run(fmt.Sprintf("%s/keys=%d", c.name, keys), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if vs := c.fn(es); len(vs) > 0 {
						b.Fatalf("a violation in a clean history: %v", vs[0])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/1M-history")
			})
		}
	}
}
