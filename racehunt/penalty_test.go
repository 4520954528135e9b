package racehunt

import (
	"net/netip"
	"slices"
	"testing"

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
// generated workloads for the designs penalties wrap (pn-lost-violation,
// a violation count read and written back non-atomically, is found with
// the profiles' race faults: profileFaults).
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
}

// TestRunnerClientsNeverShareAnAddress: a workload's client never gets an
// address an earlier client of the runner had (its no-bucket key may hold
// violations of an earlier workload), however the draws repeat.
func TestRunnerClientsNeverShareAnAddress(t *testing.T) {
	r, err := NewRunner(penaltyConfig(profile.SlidingLog, ""), []string{"http://127.0.0.1:1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	draws := []string{"127.1.1.1", "127.1.1.1", "127.2.2.2", "127.1.1.1", "127.2.2.2", "127.3.3.3"}
	r.newAddr = func() netip.Addr {
		a := netip.MustParseAddr(draws[0])
		draws = draws[1:]
		return a
	}
	var got []string
	for range 3 {
		got = append(got, r.freshAddr().String())
	}
	if want := []string{"127.1.1.1", "127.2.2.2", "127.3.3.3"}; !slices.Equal(got, want) {
		t.Fatalf("addresses %v, want %v", got, want)
	}
}
