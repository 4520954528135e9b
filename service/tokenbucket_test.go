package service

import (
	"testing"

	"github.com/rlspec/rlspec/profile"
)

func TestTokenBucketSettings(t *testing.T) {
	c, err := parse(t, map[string]string{"PROFILE": "token-bucket", "RL_BURST": "7", "RL_RATE": "0.5", "TARGET_URL": "http://x"})
	if err != nil || c.Burst != 7 || c.Rate != 0.5 {
		t.Fatalf("%+v %v", c, err)
	}
	if c, err := parse(t, map[string]string{"PROFILE": "token-bucket"}); err != nil || c.WithTokenBucketDefaults().Burst != DefaultBurst ||
		c.WithTokenBucketDefaults().Rate != DefaultRate {
		t.Fatalf("embedded defaults: %+v %v", c, err)
	}
	all, err := parse(t, map[string]string{"PROFILE": "all", "RL_BURST": "3", "RL_RATE": "1"})
	if err != nil || all.Only(profile.TokenBucket).Burst != 3 || all.Only(profile.PRD).Burst != 0 || all.Only(profile.PRD).Rate != 0 {
		t.Fatalf("PROFILE=all: %+v %v", all, err)
	}
	checkRejected(t, map[string]rejection{
		"burst-zero":    {map[string]string{"PROFILE": "token-bucket", "RL_BURST": "0"}, "RL_BURST"},
		"burst-text":    {map[string]string{"PROFILE": "token-bucket", "RL_BURST": "many"}, "RL_BURST"},
		"rate-negative": {map[string]string{"PROFILE": "token-bucket", "RL_RATE": "-2"}, "RL_RATE"},
		"rate-nan":      {map[string]string{"PROFILE": "token-bucket", "RL_RATE": "NaN"}, "RL_RATE"},
		"rate-huge":     {map[string]string{"PROFILE": "token-bucket", "RL_RATE": "1e9"}, "RL_RATE"},
		"prd-burst":     {map[string]string{"RL_BURST": "5"}, "RL_BURST does not apply to PROFILE=prd"},
		"sl-rate":       {map[string]string{"PROFILE": "sliding-log", "RL_RATE": "2"}, "RL_RATE does not apply to PROFILE=sliding-log"},
		"target-needs":  {map[string]string{"PROFILE": "token-bucket", "TARGET_URL": "http://x", "RL_BURST": "5"}, "needs RL_BURST and RL_RATE"},
		"lb-needs":      {map[string]string{"PROFILE": "leaky-bucket", "TARGET_URL": "http://x", "RL_RATE": "2"}, "PROFILE=leaky-bucket needs RL_BURST and RL_RATE"},
	})
}
