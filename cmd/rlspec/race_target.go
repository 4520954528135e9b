package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/racehunt"
)

// raceTarget is a racehunt.Target with a way to stop what was started.
type raceTarget struct {
	racehunt.Target
	stop func() error
}

func (t raceTarget) Close() error {
	err := t.Target.Close()
	if t.stop != nil {
		err = errors.Join(err, t.stop())
	}
	return err
}

// startRaceTarget starts what the settings ask for: the embedded reference
// (REPLICAS in-process servers on one store), TARGET_IMAGE's containers,
// or runs against TARGET_URLS or TARGET_URL.
func startRaceTarget(ctx context.Context, cfg raceConfig, note io.Writer) (racehunt.Target, error) {
	tc := cfg.Target
	live := []racehunt.RunnerOption{racehunt.WithMaxWait(cfg.MaxWait)}
	switch {
	case cfg.Image != "":
		extra := []containers.Option{containers.WithReplicas(cfg.Replicas)}
		if cfg.Fault != fault.None {
			extra = append(extra, containers.WithFault(string(cfg.Fault)))
		}
		_, given := cfg.set["CLIENT_IPS"]
		h, err := containers.StartForHarness(ctx, cfg.Image, &tc, containers.HarnessOptions{ClientIPsGiven: given, Extra: extra,
			Postgres: cfg.Store == fakeserver.StorePostgres}, prefixed(note, "rlspec race: "))
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", cfg.Image, err)
		}
		t, err := racehunt.NewLive(ctx, tc, h.URLs, live...)
		if err != nil {
			return nil, errors.Join(err, h.Stop())
		}
		return raceTarget{Target: t, stop: h.Stop}, nil
	case len(cfg.URLs) > 0:
		return racehunt.NewLive(ctx, tc, cfg.URLs, live...)
	case tc.URL != "":
		return racehunt.NewLive(ctx, tc, []string{tc.URL}, live...)
	default:
		// Quotas small enough to exhaust, unless RL_LIMIT was given.
		var limits []int
		if _, ok := cfg.set["RL_LIMIT"]; ok {
			limits = []int{tc.Limit}
		}
		if len(limits) == 0 {
			limits = []int{1, 2, 3, 4}
		}
		// Claimed penalties (RL_PENALTIES, or the reference's tiers) are
		// served by every server and wrap the hunter's model.
		tc = tc.WithPenaltyDefaults()
		o := embedded.Options{Fault: cfg.Fault, Store: cfg.Store, Penalties: tc.ClaimedPenalties()}
		o.Answer, o.RefusalBody = embedded.AnswerFor(tc.ForProfile(tc.Profile)) // the reference answers as the run reads
		if tc.Profile != profile.PRD {
			// The embedded reference serves the profile; a window of 3 s
			// unless RL_WINDOW was given, so half-second moves matter.
			o.Profile, o.Align = profile.Name(tc.Profile), profile.Align(tc.WindowAlign)
			if _, ok := cfg.set["RL_WINDOW"]; !ok {
				tc.Window = 3 * time.Second
			}
		}
		if profile.Of(tc.Profile).SizedByRate() {
			// Quotas are bucket sizes (the quota of RL_BURST when given:
			// a queue's places and the one in service), refilled at
			// RL_RATE (default 2/s) by every server.
			tc = tc.WithTokenBucketDefaults()
			if _, ok := cfg.set["RL_BURST"]; ok {
				limits = []int{tc.Quota()}
			}
			o.Rate, o.QueueDelay, o.NoDelay = tc.Rate, tc.Delay, tc.NoDelay()
		}
		q, err := embedded.StartQuotas(tc.Window, limits, cfg.Replicas, o)
		if err != nil {
			return nil, err
		}
		t, err := racehunt.NewQuotas(tc, q.Bases, q.Clock, q.Description, q.Close)
		if err != nil {
			return nil, errors.Join(err, q.Close())
		}
		return t, nil
	}
}
