package tokenbucket

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerTokenBucketKeys registers TB-8: after one key (or one keyless
// client address) was drained, another key from the same address, or
// another address without a key, gets a full bucket.
func (s *state) registerTokenBucketKeys(sc scenario.Stepper) {
	sc.Step(`^another fresh key from the same client address gets B requests allowed in a row$`, s.tbAnotherKey)
	sc.Step(`^another fresh client address without the key gets B requests allowed in a row$`, s.tbAnotherAddress)
}

func (s *state) tbAnotherKey() error {
	if s.Env().Config.Key.Kind == service.KeyIP {
		return scenario.Skip("KEY=ip: the key is the client address, so another key from the same address is the same key (TB-8-02 checks addresses)")
	}
	v, err := s.NewKey()
	if err != nil {
		return err
	}
	return s.fullBucketAfterDrain("another fresh key from the drained key's client address", keyed.Key{Value: v, Client: s.Key.Client})
}

func (s *state) tbAnotherAddress() error {
	return s.fullBucketAfterDrain("another fresh client address without the key", keyed.Key{Client: s.NewClient()})
}

// fullBucketAfterDrain sends B requests one after another as k, right
// after the drain's 429: each must be allowed (a fresh bucket holds B
// whatever the timing). The pass rests on the B having been decided before
// a bucket shared with the drained one could have refilled B − 1 tokens
// (it held less than one at the 429): less than (B − 1)/R from the 429's
// send to the last response.
func (s *state) fullBucketAfterDrain(who string, k keyed.Key) error {
	drained := s.Last.Ex
	if drained == nil || drained.Status/100 == 2 {
		return scenario.Precondition(fmt.Errorf("%s: the key must be drained first (its last request refused)", who))
	}
	s.Key = k
	run, err := s.SendRun(s.Burst())
	if err != nil {
		return err
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of %d of %s", i+1, len(run), who), "2xx (a bucket of its own, full)",
				fmt.Sprintf("HTTP %d", ex.Status), append([]*httpclient.Exchange{drained}, run[:i+1]...)...)
		}
	}
	s.Assume("the requests decided before a shared bucket could have refilled", func() string {
		most := time.Duration(float64(s.Burst()-1) * float64(s.PerToken()))
		if took := run[len(run)-1].Received.Sub(drained.Sent); took >= most {
			return fmt.Sprintf("%s passed from the drain's 429 to the last of the %d responses, not less than (B − 1)/R = %s, in which a bucket shared with the drained one refills", took.Round(time.Millisecond), len(run), most)
		}
		return ""
	})
	return nil
}
