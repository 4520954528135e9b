package service

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rlspec/rlspec/profile"
)

// penalties, bypass and tiers settings: read, defaulted for the embedded
// reference, required of a target claiming them, and bad input one
// sentence naming the variable.
func TestAnyProfileFeatureSettings(t *testing.T) {
	tiers := filepath.Join(t.TempDir(), "tiers.json")
	if err := os.WriteFile(tiers, []byte(`[{"path":"/v1/search","limit":3,"window":"3s"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := parse(t, map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties,bypass,tiers", "TARGET_URL": "http://x",
		"RL_PENALTIES": "1:2s,3:5s", "BYPASS_HEADERS": "X-Role: admin", "RL_TIERS": tiers, "TARGET_URL_PENALTIES": "http://y"})
	if err != nil || len(c.Penalties) != 2 || c.BypassHeaders.Get("X-Role") != "admin" || len(c.Tiers) != 1 || c.PenaltyTarget() != "http://y" {
		t.Fatalf("%+v %v", c, err)
	}
	c, err = parse(t, map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties,bypass,tiers"})
	if err != nil {
		t.Fatal(err)
	}
	d := c.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
	if len(d.Penalties) != 3 || len(d.BypassHeaders) != 1 || len(d.Tiers) != 2 {
		t.Fatalf("embedded defaults: %+v", d)
	}
	if d.ForProfile(profile.SlidingLog).Only(profile.SlidingLog).ClaimedPenalties() == nil {
		t.Fatal("claimed penalties lost")
	}
	checkRejected(t, map[string]rejection{
		"penalties-order":  {map[string]string{"RL_PENALTIES": "3:2s,1:4s"}, "RL_PENALTIES"},
		"penalties-text":   {map[string]string{"RL_PENALTIES": "soon"}, "RL_PENALTIES"},
		"penalties-url":    {map[string]string{"TARGET_URL_PENALTIES": "ftp://x"}, "TARGET_URL_PENALTIES"},
		"penalties-needed": {map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties", "TARGET_URL": "http://x"}, "needs RL_PENALTIES"},
		"bypass-bad":       {map[string]string{"BYPASS_HEADERS": "admin"}, "BYPASS_HEADERS"},
		"bypass-needed":    {map[string]string{"PROFILE": "sliding-log", "FEATURES": "bypass", "TARGET_URL": "http://x"}, "needs BYPASS_HEADERS"},
		"tiers-missing":    {map[string]string{"RL_TIERS": "/nonexistent/tiers.json"}, "RL_TIERS"},
		"tiers-needed":     {map[string]string{"PROFILE": "sliding-log", "FEATURES": "tiers", "TARGET_URL": "http://x"}, "needs RL_TIERS"},
	})
}
