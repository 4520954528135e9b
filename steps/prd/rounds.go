package prd

import (
	"fmt"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/steps/scenario"
)

// A race on several buckets at once (AC7-01, AC7-02): a slow target that
// spreads one batch's decisions may let a race pass in one bucket, and one
// of the others shows it. Each bucket is set up as the one-bucket steps
// set theirs up, in turn, and keeps what they know of it.

// registerRounds registers the steps of a race on several buckets.
func (s *World) registerRounds(sc scenario.Stepper) {
	sc.Step(`^(\d+) fresh device buckets, each with its first ride sent$`, func(k int) error { return s.freshBuckets(k, s.freshBucketFirstSent) })
	sc.Step(`^(\d+) fresh device buckets with (\d+) units? left each$`, func(k, n int) error {
		return s.freshBuckets(k, func() error { return s.freshBucketWithLeft(n) })
	})
	sc.Step(`^(\d+) different rides are sent to each bucket concurrently, all at once$`, s.eachConcurrently)
	sc.Step(`^each bucket got exactly min\(N, Q\) 200s with Remaining Q-1 down to Q-min\(N, Q\) each once and the rest 429$`, s.eachExactlyMinNQ)
}

// freshBuckets sets up k buckets with setUp, one after another, and keeps
// each as a round.
func (s *World) freshBuckets(k int, setUp func() error) error {
	s.rounds = s.rounds[:0]
	for range k {
		s.Bucket = Bucket{}
		if err := setUp(); err != nil {
			return err
		}
		s.rounds = append(s.rounds, round{bucket: s.Bucket, left: s.UnitsLeft()})
	}
	return nil
}

// eachConcurrently releases n fresh rides to each bucket, each bucket's on
// its own client, all at one instant.
func (s *World) eachConcurrently(n int) error {
	if len(s.rounds) == 0 {
		return scenario.Precondition(fmt.Errorf("no buckets: the scenario must set up several fresh device buckets first"))
	}
	batches := make([]scenario.Dialed, len(s.rounds))
	for i, r := range s.rounds {
		reqs, err := s.Requests(n, bodytmpl.Bucket(r.bucket.ID))
		if err != nil {
			return err
		}
		batches[i] = scenario.Dialed{Sender: s.NewClient(), Reqs: reqs}
		s.Predial(batches[i].Sender, n)
	}
	out, err := s.FireDialedAll(batches, s.Now().Add(scenario.ReleaseLead))
	for i := range out {
		s.rounds[i].batch = scenario.Batch{Sent: n, Left: s.rounds[i].left, Exchanges: out[i]}
	}
	return err
}

// eachExactlyMinNQ is exactlyMinNQ on each bucket's batch in turn; the
// first bucket that got otherwise is the verdict.
func (s *World) eachExactlyMinNQ() error {
	for _, r := range s.rounds {
		if r.batch.Exchanges == nil {
			return scenario.Precondition(fmt.Errorf("bucket %s got no batch", r.bucket.ID))
		}
		s.Bucket, s.Batch = r.bucket, r.batch
		if err := s.exactlyMinNQ(); err != nil {
			return err
		}
	}
	return nil
}
