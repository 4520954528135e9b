package keyed

import (
	"context"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// TestSQLWithoutAnonymousOpenSkipsFW7: a function has no client address, so
// FW-7 without anonymous-open is skipped with the reason, never passed.
func TestSQLWithoutAnonymousOpenSkipsFW7(t *testing.T) {
	cfg := service.DefaultConfig()
	cfg.SQL, cfg.Profile, cfg.Features = "check_rate_limit", profile.FixedWindow, []profile.Feature{}
	s := testWorld(context.Background(), &scenario.Env{Config: cfg})
	if err := s.freshAnonymous(); err == nil || !strings.Contains(err.Error(), "no client address") {
		t.Fatalf("freshAnonymous: %v", err)
	}
}
