package main

import (
	"fmt"

	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// queueOptions models the target's queue when it claims one: under a
// profile whose design queues (leaky-bucket) the attack steps the design's
// model per key with the send times and reports the queueing delay it
// prescribes beside the latency (loadgen.WithQueue). Other profiles queue
// nothing.
func queueOptions(t service.Config) ([]loadgen.Option, error) {
	p := profile.Of(t.Profile)
	if !p.Queues {
		return nil, nil
	}
	if t.Burst == 0 || t.Rate == 0 {
		return nil, fmt.Errorf("PROFILE=%s: give RL_BURST and RL_RATE, the queue's places and drain rate, to measure its queueing delay", t.Profile)
	}
	m, err := p.Design(t.Params())
	if err != nil {
		return nil, fmt.Errorf("PROFILE=%s: %w", t.Profile, err)
	}
	q, ok := m.(loadgen.Queue)
	if !ok {
		return nil, fmt.Errorf("PROFILE=%s: its model %T says no queue's wait (loadgen.Queue)", t.Profile, m)
	}
	return []loadgen.Option{loadgen.WithQueue(q)}, nil
}
