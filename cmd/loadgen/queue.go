package main

import (
	"errors"
	"fmt"

	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// queueOptions models the target's queue when it claims one: under
// PROFILE=leaky-bucket the attack steps the design's model per key with the
// send times and reports the queueing delay it prescribes beside the
// latency (loadgen.WithQueue). Other profiles queue nothing.
func queueOptions(t service.Config) ([]loadgen.Option, error) {
	if t.Profile != profile.LeakyBucket {
		return nil, nil
	}
	if t.Burst == 0 || t.Rate == 0 {
		return nil, errors.New("PROFILE=leaky-bucket: give RL_BURST and RL_RATE, the queue's places and drain rate, to measure its queueing delay")
	}
	m, err := model.NewLeakyBucket(t.Burst, t.Rate, t.Delay, t.NoDelay())
	if err != nil {
		return nil, fmt.Errorf("PROFILE=leaky-bucket: %w", err)
	}
	return []loadgen.Option{loadgen.WithQueue(m)}, nil
}
