package selftest

import (
	"slices"
	"testing"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// The reference's fixed-window suite runs with epoch and with each
// alignment a fault of the profile is served with (fw-key-grid:
// first-request), so that the scenarios that catch such a fault are shown
// to pass the correct design under the same claim; other profiles once.
func TestReferenceAlignsFollowTheFaults(t *testing.T) {
	f, ok := fault.Lookup(fault.FWKeyGrid)
	if !ok || f.Align != fakeserver.AlignFirstRequest {
		t.Fatalf("fw-key-grid is served with %q", f.Align)
	}
	if got := referenceAligns(fakeserver.ProfileFixedWindow); !slices.Equal(got, []fakeserver.Align{fakeserver.AlignEpoch, fakeserver.AlignFirstRequest}) {
		t.Errorf("fixed-window: %v", got)
	}
	if got := referenceAligns(fakeserver.ProfileTokenBucket); !slices.Equal(got, []fakeserver.Align{""}) {
		t.Errorf("token-bucket: %v", got)
	}
}
