package selftest

import (
	"slices"
	"testing"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/profile"
)

// The reference's fixed-window suite runs with epoch and with each
// alignment a fault of the profile is served with (fw-key-grid:
// first-request), so that the scenarios that catch such a fault are shown
// to pass the correct design under the same claim; other profiles once.
func TestReferenceAlignsFollowTheFaults(t *testing.T) {
	f, ok := faults.Lookup(fault.FWKeyGrid)
	if !ok || f.Align != profile.AlignFirstRequest {
		t.Fatalf("fw-key-grid is served with %q", f.Align)
	}
	if got := referenceAligns(profile.FixedWindow); !slices.Equal(got, []profile.Align{profile.AlignEpoch, profile.AlignFirstRequest, profile.AlignKeyGrid, profile.AlignGrid}) {
		t.Errorf("fixed-window: %v", got)
	}
	if got := referenceAligns(profile.TokenBucket); !slices.Equal(got, []profile.Align{""}) {
		t.Errorf("token-bucket: %v", got)
	}
}
