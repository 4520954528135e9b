package steps

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

func TestCommandStore(t *testing.T) {
	ctx := context.Background()
	if err := (CommandStore{Down: "true", Up: "true"}).StoreDown(ctx); err != nil {
		t.Fatal(err)
	}
	err := CommandStore{Up: "echo refusing; exit 3"}.StoreUp(ctx)
	if err == nil || !strings.Contains(err.Error(), "STORE_UP_CMD") || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("failing command: err = %v", err)
	}
	err = CommandStore{Down: "echo started; sleep 10", Timeout: 200 * time.Millisecond}.StoreDown(ctx)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") || !strings.Contains(err.Error(), "started") {
		t.Fatalf("slow command: err = %v", err)
	}
}

func TestFailModeSkipsWithReason(t *testing.T) {
	for _, tc := range []struct {
		features []profile.Feature
		store    scenario.StoreControl
		claim    profile.Feature
		want     string
	}{
		{nil, CommandStore{}, profile.FailOpen, "not claimed: FEATURES does not include fail-open"},
		{[]profile.Feature{profile.FailOpen}, CommandStore{}, profile.FailClosed, "not claimed"},
		{nil, nil, profile.FailClosed, "set STORE_DOWN_CMD and STORE_UP_CMD"},
		{nil, CommandStore{}, profile.FailClosed, ""},
	} {
		cfg := service.DefaultConfig()
		cfg.Features = tc.features
		s := testWorld(context.Background(), &scenario.Env{Config: cfg, Store: tc.store})
		err := s.claimsFailMode(string(tc.claim))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v claims %s: err = %v", tc.features, tc.claim, err)
			}
			continue
		}
		if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v claims %s: err = %v, want a skip saying %q", tc.features, tc.claim, err, tc.want)
		}
	}
}
