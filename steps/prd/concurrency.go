package prd

import (
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerConcurrency registers the steps of concurrent requests on one
// bucket (AC7, FR-4).
func (s *World) registerConcurrency(sc scenario.Stepper) {
	sc.Step(`^(\d+) different rides are sent to the bucket concurrently$`, s.concurrentDifferent)
	sc.Step(`^exactly min\(N, Q\) got 200 with Remaining Q-1 down to Q-min\(N, Q\) each once and the rest 429$`, s.exactlyMinNQ)
}

// UnitsLeft is what the scenario knows the bucket has left: the seeded
// value, else the last response's Remaining, else a fresh bucket's limit.
func (s *World) UnitsLeft() int {
	if s.Bucket.seeded {
		return s.Bucket.left
	}
	if s.Bucket.spent != nil {
		if rl, err := s.Bucket.spent.RateLimit(); err == nil {
			return int(rl.Remaining)
		}
	}
	return s.Limit()
}

// concurrentDifferent sends n fresh rides at once; the batch records how
// many were sent and how many units the bucket had before.
func (s *World) concurrentDifferent(n int) error {
	reqs, err := s.Requests(n, bodytmpl.Bucket(s.Bucket.ID))
	if err != nil {
		return err
	}
	s.Batch = scenario.Batch{Sent: n, Left: s.UnitsLeft()}
	s.Batch.Exchanges, err = s.Fire(s.Client(), reqs, time.Time{})
	return err
}

// exactlyMinNQ checks the batch: exactly min(N, Q) 200s, their Remaining
// Q-1 down to Q-min(N, Q) each once, the rest 429. An undecided answer (a
// busy store's 503, scenario.Undecided) is neither: with one, only a
// violation that holds whatever it would have been counts — more 200s than
// min(N, Q), or one Remaining twice — and otherwise the verdict rests on
// every request having been decided (scenario.AssumeDecided).
func (s *World) exactlyMinNQ() error {
	n, q := s.Batch.Sent, s.Batch.Left
	k := min(n, q)
	decided, undecided := scenario.Decided(s.Batch.Exchanges)
	var got []int64
	others := 0
	var bad *httpclient.Exchange
	for _, ex := range decided {
		switch ex.Status {
		case http.StatusOK:
			rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
			if err != nil {
				return err
			}
			got = append(got, rl.Remaining)
		case http.StatusTooManyRequests:
			others++
		default:
			bad = ex
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i] > got[j] })
	want := make([]int64, k)
	for i := range want {
		want[i] = int64(q - 1 - i)
	}
	if bad == nil && len(undecided) > 0 && len(got) <= k && !repeats(got) {
		s.AssumeDecided(n, undecided)
		return nil
	}
	if bad != nil || len(got) != k || others != n-k || fmt.Sprint(got) != fmt.Sprint(want) {
		actual := fmt.Sprintf("%d× 200 with Remaining %v, %d× 429", len(got), got, others)
		if bad != nil {
			actual += "; also " + check.Describe(bad)
		}
		if len(undecided) > 0 {
			actual += fmt.Sprintf("; also %d× 503 with Retry-After", len(undecided))
		}
		return scenario.Violate(clause.Of(clause.AC7, clause.FR4), fmt.Sprintf("%d concurrent requests on a bucket with %d units left", n, q),
			fmt.Sprintf("exactly %d× 200 with Remaining %v (each once) and %d× 429", k, want, n-k),
			actual, s.Batch.Exchanges...)
	}
	return nil
}

// repeats reports whether the sorted values hold one value twice.
func repeats(sorted []int64) bool {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return true
		}
	}
	return false
}
