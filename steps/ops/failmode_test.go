package ops

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/targetstore"
)

func TestFailModeSkipsWithReason(t *testing.T) {
	for _, tc := range []struct {
		features []profile.Feature
		store    scenario.StoreControl
		claim    profile.Feature
		want     string
	}{
		{nil, targetstore.CommandStore{}, profile.FailOpen, "not claimed: FEATURES does not include fail-open"},
		{[]profile.Feature{profile.FailOpen}, targetstore.CommandStore{}, profile.FailClosed, "not claimed"},
		{nil, nil, profile.FailClosed, "set STORE_DOWN_CMD and STORE_UP_CMD"},
		{nil, targetstore.CommandStore{}, profile.FailClosed, ""},
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
