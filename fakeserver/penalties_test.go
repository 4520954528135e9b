package fakeserver_test

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
)

// RL_PENALTIES is read and checked; bad tiers are one sentence.
func TestConfigPenalties(t *testing.T) {
	env := map[string]string{"RL_PROFILE": "sliding-log", "RL_PENALTIES": "2:4s,3:8s"}
	get := envflag.Map(env)
	c, err := fakeserver.ConfigFromEnv(get)
	if err != nil || len(c.Penalties) != 2 {
		t.Fatalf("got %+v, %v", c.Penalties, err)
	}
	env["RL_PENALTIES"] = "3:4s,2:8s"
	if _, err := fakeserver.ConfigFromEnv(get); err == nil || !strings.HasPrefix(err.Error(), "RL_PENALTIES: ") {
		t.Fatalf("descending counts: %v", err)
	}
}
