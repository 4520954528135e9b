package service

import (
	"testing"
)

// LB_MODE and RL_DELAY are the leaky bucket's: D is RL_DELAY under delay
// and B under nodelay; anything else is one sentence naming the variable.
func TestLeakyBucketSettings(t *testing.T) {
	c, err := parse(t, map[string]string{"PROFILE": "leaky-bucket", "LB_MODE": "nodelay", "RL_BURST": "5", "RL_RATE": "2", "TARGET_URL": "http://x"})
	if err != nil || !c.NoDelay() || c.AnsweredAtOnce() != 5 {
		t.Fatalf("nodelay: %+v %v", c, err)
	}
	c, err = parse(t, map[string]string{"PROFILE": "leaky-bucket", "RL_DELAY": "2", "RL_BURST": "5", "RL_RATE": "2", "TARGET_URL": "http://x"})
	if err != nil || c.NoDelay() || c.AnsweredAtOnce() != 2 {
		t.Fatalf("delay=2: %+v %v", c, err)
	}
	checkRejected(t, map[string]rejection{
		"mode-unknown":  {map[string]string{"PROFILE": "leaky-bucket", "LB_MODE": "burst"}, "LB_MODE"},
		"delay-text":    {map[string]string{"PROFILE": "leaky-bucket", "RL_DELAY": "some"}, "RL_DELAY"},
		"delay-burst":   {map[string]string{"PROFILE": "leaky-bucket", "RL_DELAY": "6", "RL_BURST": "5"}, "at most RL_BURST"},
		"delay-nodelay": {map[string]string{"PROFILE": "leaky-bucket", "RL_DELAY": "2", "LB_MODE": "nodelay"}, "one or the other"},
		"tb-mode":       {map[string]string{"PROFILE": "token-bucket", "LB_MODE": "nodelay"}, "LB_MODE does not apply to PROFILE=token-bucket"},
		"swc-first":     {map[string]string{"PROFILE": "sliding-window-counter", "WINDOW_ALIGN": "first-request"}, "does not apply to PROFILE=sliding-window-counter"},
	})
}
