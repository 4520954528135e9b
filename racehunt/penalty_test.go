package racehunt

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// penaltyConfig is a profile's hunt with penalties claimed, at the
// embedded reference's default tiers.
func penaltyConfig(p profile.Name, align profile.Align) service.Config {
	cfg := profileConfig(p, align)
	cfg.Features = append(cfg.Features, profile.Penalties)
	return cfg.WithPenaltyDefaults()
}

// TestModelForPenalties: claimed penalties wrap the design with the
// claimed tiers; claimed without tiers is an error, not a model without
// them.
func TestModelForPenalties(t *testing.T) {
	cfg := penaltyConfig(profile.SlidingLog, "")
	m, err := ModelFor(cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := m.(model.Penalties)
	if !ok || len(p.Tiers) != len(cfg.Penalties) {
		t.Fatalf("model %T %+v, want model.Penalties with %v", m, m, cfg.Penalties)
	}
	if sl, ok := p.Inner.(model.SlidingLog); !ok || sl.Limit != 2 {
		t.Fatalf("inner model %T %+v, want the sliding log of limit 2", p.Inner, p.Inner)
	}
	cfg.Penalties = nil
	if _, err := ModelFor(cfg, 2); err == nil {
		t.Fatal("penalties claimed without tiers: no error")
	}
	if m, err := ModelFor(profileConfig(profile.SlidingLog, ""), 2); err != nil {
		t.Fatal(err)
	} else if _, ok := m.(model.Penalties); ok {
		t.Fatal("penalties not claimed, yet modelled")
	}
}

// TestPenaltiesRace: the reference serving penalties is clean over
// generated workloads for the designs penalties wrap, and a violation
// count read and written back non-atomically (pn-lost-violation) is found.
func TestPenaltiesRace(t *testing.T) {
	for _, cfg := range []service.Config{
		penaltyConfig(profile.SlidingLog, ""),
		penaltyConfig(profile.FixedWindow, profile.AlignEpoch),
		penaltyConfig(profile.TokenBucket, ""),
	} {
		t.Run(string(cfg.Profile), func(t *testing.T) {
			huntClean(t, startProfile(t, cfg, fault.None, 1), profileHunt(t, cfg, 30))
		})
	}
	t.Run(string(fault.PNLostViolation), func(t *testing.T) {
		cfg := penaltyConfig(profile.SlidingLog, "")
		o := profileHunt(t, cfg, 100)
		o.Repeat, o.ShrinkTime = 2, 300*time.Millisecond
		huntFinds(t, startProfile(t, cfg, fault.PNLostViolation, 1), o)
	})
}
