package main

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// TestRaceSettingsProfile: PROFILE and its settings reach the hunt, a
// profile fault selects its profile, and what cannot run is refused.
func TestRaceSettingsProfile(t *testing.T) {
	getenv := func(env map[string]string) envflag.Getenv {
		return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	}
	cfg, err := raceSettings(nil, getenv(map[string]string{"PROFILE": "sliding-log", "KEY_FORMAT": "u-{{.Key}}"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tc := cfg.Target; tc.Profile != profile.SlidingLog || tc.Method != "GET" || tc.Key.String() != "header:X-User-ID" || tc.KeyFormat != "u-{{.Key}}" {
		t.Fatalf("settings %+v", tc)
	}
	if cfg.set["PROFILE"] != "sliding-log" || cfg.set["KEY_FORMAT"] != "u-{{.Key}}" {
		t.Errorf("the replay command loses the profile settings: %v", cfg.set)
	}
	cfg, err = raceSettings(nil, getenv(map[string]string{"FAULT": "fw-boundary-race"}), nil)
	if err != nil || cfg.Target.Profile != profile.FixedWindow || cfg.Target.WindowAlign != profile.AlignEpoch {
		t.Fatalf("FAULT=fw-boundary-race: profile %q align %q, %v", cfg.Target.Profile, cfg.Target.WindowAlign, err)
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PROFILE": "all"}, "one profile at a time"},
		{map[string]string{"PROFILE": "sliding-log", "KEY": "body:user"}, "embedded reference"},
		{map[string]string{"PROFILE": "fixed-window", "TARGET_METHOD": "POST"}, "embedded reference"},
		{map[string]string{"PROFILE": "sliding-log", "WINDOW_ALIGN": "epoch"}, "WINDOW_ALIGN does not apply"},
	} {
		if _, err := raceSettings(nil, getenv(tc.env), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.env, err, tc.want)
		}
	}
	if _, err := raceSettings(nil, getenv(map[string]string{"PROFILE": "sliding-log", "KEY": "body:user", "TARGET_URL": "http://127.0.0.1:9"}), nil); err != nil {
		t.Errorf("KEY=body:user against a TARGET_URL: %v", err)
	}
}
