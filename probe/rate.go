package probe

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rlspec/rlspec/dialect"
)

// rate is token-bucket's R as far as the answers pin it: the nicest rate
// consistent with the refill counted and the refusal's Reset and
// Retry-After, or 0 and why not.
func (s *Session) rate(b int64) (float64, string) {
	f := &s.F
	lo, hi, est := 0.0, math.Inf(1), 0.0
	var from []string
	if r := f.Refilled; r != nil && !r.Partial && r.Elapsed > 0 {
		el := r.Elapsed.Seconds()
		k := float64(r.Allowed)
		lo, hi, est = max(lo, (k-1)/el), min(hi, (k+1)/el), k/el
		from = append(from, fmt.Sprintf("%d tokens back after %.1fs", r.Allowed, el))
	}
	if f.Refusal != nil {
		if in, ok := resetIn(f.Refusal); ok && in > 0 {
			t := float64(in)
			lo, hi = max(lo, float64(b-1)/(t+1)), min(hi, float64(b)/max(t-1, 0.5))
			if est == 0 {
				est = float64(b) / t
			}
			from = append(from, fmt.Sprintf("the refusal's Reset %ds ahead for a burst of %d", in, b))
		}
		if ra := f.Refusal.Obs.RetryAfter; f.Refusal.Obs.Has(dialect.FieldRetryAfter) && ra > 0 {
			sec := float64(dialect.Seconds(ra))
			lo = max(lo, 1/sec)
			if sec > 1 {
				hi = min(hi, 1/(sec-1))
			}
			if est == 0 {
				est = 1 / sec
			}
			from = append(from, fmt.Sprintf("Retry-After %ds", int64(sec)))
		}
	}
	if est == 0 {
		return 0, "the answers show no refill rate"
	}
	best := nicest(est, lo, hi)
	why := "from " + joinAnd(from)
	if best == 0 {
		best = math.Round(est*100) / 100
		why += " (no round rate fits all of them; measured)"
	}
	return best, why
}

// nicest is the round rate in [lo, hi] nearest est, 0 when none is.
func nicest(est, lo, hi float64) float64 {
	best := 0.0
	for _, c := range []float64{0.1, 0.2, 0.25, 0.5, 1, 2, 3, 4, 5, 10, 20, 25, 50, 100, 200, 500, 1000} {
		if c >= lo && c <= hi && (best == 0 || math.Abs(math.Log(c/est)) < math.Abs(math.Log(best/est))) {
			best = c
		}
	}
	return best
}

func formatRate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

func joinAnd(ss []string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return ss[0]
	}
	out := ss[0]
	for _, s := range ss[1 : len(ss)-1] {
		out += ", " + s
	}
	return out + " and " + ss[len(ss)-1]
}
