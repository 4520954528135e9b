package racehunt

import (
	"context"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/fixedwindow"
	"github.com/rlspec/rlspec/fault/leakybucket"
	"github.com/rlspec/rlspec/fault/penalties"
	"github.com/rlspec/rlspec/fault/slidinglog"
	"github.com/rlspec/rlspec/fault/swcounter"
	"github.com/rlspec/rlspec/fault/tokenbucket"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// profileConfig is the settings of a profile's hunt: its defaults, a 3 s
// window.
func profileConfig(p profile.Name, align profile.Align) service.Config {
	cfg := service.DefaultConfig()
	cfg.Profile, cfg.WindowAlign, cfg.Window = p, align, 3*time.Second
	if p == profile.TokenBucket || p == profile.LeakyBucket {
		cfg = cfg.WithTokenBucketDefaults()
	}
	return cfg.ForProfile(p)
}

// profileFaults are the race faults of the other profiles the hunter must
// find, each on its profile's reference.
var profileFaults = []struct {
	fault fault.Name
	cfg   service.Config
}{
	{slidinglog.SLCheckThenRecord, profileConfig(profile.SlidingLog, "")},
	{fixedwindow.FWInsertRace, profileConfig(profile.FixedWindow, profile.AlignEpoch)},
	{fixedwindow.FWBoundaryRace, profileConfig(profile.FixedWindow, profile.AlignEpoch)},
	{tokenbucket.TBLostUpdate, profileConfig(profile.TokenBucket, "")},
	{swcounter.SWCLostUpdate, profileConfig(profile.SlidingWindowCounter, "")},
	{leakybucket.LBLostUpdate, profileConfig(profile.LeakyBucket, "")},
	{penalties.PNLostViolation, penaltyConfig(profile.SlidingLog, "")},
}

func profileHunt(t *testing.T, cfg service.Config, checks int) HuntOptions {
	o := huntOpts(t, checks, 0)
	o.Gen.Profile = cfg.Profile
	return o
}

// TestProfileRaceProperties: the reference serving each profile is clean
// over generated workloads, and each profile's race fault is found; the
// seed it prints reproduces it.
func TestProfileRaceProperties(t *testing.T) {
	for _, cfg := range []service.Config{
		profileConfig(profile.SlidingLog, ""),
		profileConfig(profile.FixedWindow, profile.AlignEpoch),
		profileConfig(profile.FixedWindow, profile.AlignFirstRequest),
		profileConfig(profile.TokenBucket, ""),
		profileConfig(profile.SlidingWindowCounter, ""),
		profileConfig(profile.LeakyBucket, ""),
		profileConfig(profile.FixedWindow, profile.AlignKeyGrid),
	} {
		t.Run(string(cfg.Profile)+"/"+string(cfg.WindowAlign), func(t *testing.T) {
			huntClean(t, startProfile(t, cfg, fault.None, 1), profileHunt(t, cfg, 30))
		})
	}
	for _, tc := range profileFaults {
		t.Run(string(tc.fault), func(t *testing.T) {
			// Brief shrinking and few replays keep make test fast
			// (TestRaceMatrix measures them).
			e := startProfile(t, tc.cfg, tc.fault, 1)
			o := profileHunt(t, tc.cfg, 100)
			o.Repeat, o.ShrinkTime = 2, 300*time.Millisecond
			res := huntFinds(t, e, o)
			rep, err := Hunt(context.Background(), e, HuntOptions{Seed: res.Seed, Repeat: 3, ShrinkTime: 100 * time.Millisecond, Gen: GenOptions{Boundaries: true, Profile: tc.cfg.Profile}})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Found || rep.SeedReproduced == 0 {
				t.Fatalf("seed %d replay: found %v, reproduced %d/3", res.Seed, rep.Found, rep.SeedReproduced)
			}
		})
	}
}

// The grid's anchor is not learnt yet: the hunter says so rather than
// judge a target on a phase of its own.
func TestGridNeedsItsAnchor(t *testing.T) {
	if _, err := ModelFor(profileConfig(profile.FixedWindow, profile.AlignGrid), 3); err == nil {
		t.Fatal("a model of WINDOW_ALIGN=grid without its anchor")
	}
}
