package keyed

import (
	"fmt"

	"github.com/rlspec/rlspec/steps/scenario"
)

// registerRounds registers the steps of a race on several fresh keys at
// once (FW-4-01, SL-3-01): each key's first-ever request races its own
// insert, and a race a single batch misses in one run in several — a slow
// target spreads its decisions — is caught by one of the keys.
func (s *World) registerRounds(sc scenario.Stepper) {
	sc.Step(`^N\+(\d+) requests are sent concurrently with each of (\d+) fresh keys$`, s.keysConcurrently)
	sc.Step(`^each key got exactly N allowed and the rest refused with 429$`, s.eachExactlyN)
}

// keysConcurrently releases N+k requests of each of n fresh keys, each on
// its own client, all at one instant.
func (s *World) keysConcurrently(k, n int) error {
	batches := make([]scenario.Dialed, n)
	for i := range batches {
		key, err := s.NewKey()
		if err != nil {
			return err
		}
		b := scenario.Dialed{Sender: s.NewClient(), Reqs: s.KeyedN(key, s.Limit()+k)}
		s.Predial(b.Sender, len(b.Reqs))
		batches[i] = b
	}
	var err error
	s.rounds, err = s.FireDialedAll(batches, s.Now().Add(scenario.ReleaseLead))
	return err
}

// eachExactlyN is ExactlyN on each key's batch in turn; the first key
// that got other than N is the verdict.
func (s *World) eachExactlyN() error {
	if len(s.rounds) == 0 {
		return scenario.Precondition(fmt.Errorf("no keys' batches were sent"))
	}
	for _, exs := range s.rounds {
		s.Batch = scenario.Batch{Exchanges: exs, Sent: len(exs)}
		if err := s.ExactlyN(); err != nil {
			return err
		}
	}
	return nil
}
