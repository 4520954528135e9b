package bound

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
)

// LeakyBucket is LB-1: for one key, allowed responses leave no faster
// than rate — over any span [t1, t2] of their decision times at most
// 1 + delay + rate·(t2 − t1), with 1 more for tolerance (delay is
// RL_DELAY's D). A response's decision lies in [Send, Recv]: a set S of
// allowed requests is a violation when |S| > 2 + delay + rate·(max Recv −
// min Send + tol) — the arrival-curve sweep of TokenBucket with a burst of
// 1 + delay. One violation per key.
func LeakyBucket(events []Event, delay int, rate float64, tol time.Duration) []Violation {
	var out []Violation
	slack := float64(1+delay) + 1 + rate*tol.Seconds()
	for _, es := range byKey(events) {
		if v, ok := arrival(allowedOnly(es), rate, slack); ok {
			v.Clause = clause.LB1
			v.Bound = fmt.Sprintf("allowed responses leave no faster than %g/s: at most 1 + %d + %g/s·Δt (+1) in any span Δt", rate, delay, rate)
			out = append(out, v)
		}
	}
	return out
}
