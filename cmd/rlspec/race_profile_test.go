package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// TestRaceSettingsProfile: PROFILE and its settings reach the hunt, a
// profile fault selects its profile, and what cannot run is refused.
func TestRaceSettingsProfile(t *testing.T) {
	cfg, err := raceSettings(nil, envflag.Map(map[string]string{"PROFILE": "sliding-log", "KEY_FORMAT": "u-{{.Key}}"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tc := cfg.Target; tc.Profile != profile.SlidingLog || tc.Method != "GET" || tc.Key.String() != "header:X-User-ID" || tc.KeyFormat != "u-{{.Key}}" {
		t.Fatalf("settings %+v", tc)
	}
	if cfg.set["PROFILE"] != "sliding-log" || cfg.set["KEY_FORMAT"] != "u-{{.Key}}" {
		t.Errorf("the replay command loses the profile settings: %v", cfg.set)
	}
	cfg, err = raceSettings(nil, envflag.Map(map[string]string{"FAULT": "fw-boundary-race"}), nil)
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
		{map[string]string{"PROFILE": "prd", "FEATURES": "penalties"}, "not the PRD"},
		{map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties", "RL_PENALTIES": "2:0s"}, "RL_PENALTIES"},
	} {
		if _, err := raceSettings(nil, envflag.Map(tc.env), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.env, err, tc.want)
		}
	}
	if _, err := raceSettings(nil, envflag.Map(map[string]string{"PROFILE": "sliding-log", "KEY": "body:user", "TARGET_URL": "http://127.0.0.1:9"}), nil); err != nil {
		t.Errorf("KEY=body:user against a TARGET_URL: %v", err)
	}
}

// TestRacePenaltiesServed: with penalties claimed the embedded reference
// serves them (the reference's tiers when RL_PENALTIES is unset, the given
// ones else) and the hunter models them.
func TestRacePenaltiesServed(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties"}, "penalties 2:5s,3:8s,4:11s"},
		{map[string]string{"PROFILE": "token-bucket", "FEATURES": "penalties", "RL_PENALTIES": "1:3s"}, "penalties 1:3s"},
	} {
		getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		cfg, err := raceSettings(nil, getenv, nil)
		if err != nil {
			t.Fatal(err)
		}
		tgt, err := startRaceTarget(context.Background(), cfg, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if d := tgt.Describe(); !strings.Contains(d, tc.want) {
			t.Errorf("%v: %s, want %q", tc.env, d, tc.want)
		}
		if err := tgt.Close(); err != nil {
			t.Error(err)
		}
		// The replay command carries the penalties, or it would replay
		// the seed against a reference without them.
		cmd := replayCommand(cfg, 7)
		for k, v := range tc.env {
			if !strings.Contains(cmd, k+"="+v) {
				t.Errorf("replay command %q lacks %s=%s", cmd, k, v)
			}
		}
	}
}
