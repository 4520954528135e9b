package racehunt

import (
	"context"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/service"
)

// profileConfig is the settings of a profile's hunt: its defaults, a 3 s
// window.
func profileConfig(p service.Profile, align service.WindowAlign) service.Config {
	cfg := service.DefaultConfig()
	cfg.Profile, cfg.WindowAlign, cfg.Window = p, align, 3*time.Second
	return cfg.ForProfile(p)
}

// profileFaults are the race faults of the other profiles the hunter must
// find, each on its profile's reference.
var profileFaults = []struct {
	fault fault.Name
	cfg   service.Config
}{
	{fault.SLCheckThenRecord, profileConfig(service.ProfileSlidingLog, "")},
	{fault.FWInsertRace, profileConfig(service.ProfileFixedWindow, service.AlignEpoch)},
	{fault.FWBoundaryRace, profileConfig(service.ProfileFixedWindow, service.AlignEpoch)},
}

func profileHunt(t *testing.T, cfg service.Config, checks int) HuntOptions {
	o := huntOpts(t, checks, 0)
	o.Gen.Profile = cfg.Profile
	o.NoFailFile = true
	return o
}

// TestProfileRaceProperties: the reference serving each profile is clean
// over generated workloads, and each profile's race fault is found.
func TestProfileRaceProperties(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []service.Config{
		profileConfig(service.ProfileSlidingLog, ""),
		profileConfig(service.ProfileFixedWindow, service.AlignEpoch),
		profileConfig(service.ProfileFixedWindow, service.AlignFirstRequest),
	} {
		t.Run(string(cfg.Profile)+"/"+string(cfg.WindowAlign), func(t *testing.T) {
			res, err := Hunt(ctx, startProfile(t, cfg, fault.None, 1), profileHunt(t, cfg, 30))
			if err != nil {
				t.Fatal(err)
			}
			if res.Found {
				t.Fatalf("violation on the reference: %s\n%s\n%v", res.Class, res.Workload, res.Violations)
			}
			if res.Checks != 30 {
				t.Fatalf("ran %d workloads, want 30 (%s)", res.Checks, res.RapidReport)
			}
		})
	}
	for _, tc := range profileFaults {
		t.Run(string(tc.fault), func(t *testing.T) {
			res, err := Hunt(ctx, startProfile(t, tc.cfg, tc.fault, 1), profileHunt(t, tc.cfg, 100))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Found {
				t.Fatalf("fault %s not found in %d workloads", tc.fault, res.Checks)
			}
			t.Logf("found %s after %d workloads in %s; shrunk workload reproduced %d/%d\n%s%v", res.Class, res.Checks, res.Detected, res.Reproduced, res.Repeat, res.Workload, res.Violations)
		})
	}
}
