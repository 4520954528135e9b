package selftest

import (
	"slices"
	"testing"

	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/fault/fixedwindow"
	"github.com/rlspec/rlspec/profile"
)

// The reference's fixed-window suite runs with epoch and with each
// alignment a fault of the profile is served with (fw-key-grid:
// first-request), so that the scenarios that catch such a fault are shown
// to pass the correct design under the same claim; the leaky bucket in
// both modes (its nodelay faults); other profiles once.
func TestReferenceAlignsFollowTheFaults(t *testing.T) {
	f, ok := faults.Lookup(fixedwindow.FWKeyGrid)
	if !ok || f.Align != profile.AlignFirstRequest {
		t.Fatalf("fw-key-grid is served with %q", f.Align)
	}
	aligned := []serving{{Align: profile.AlignEpoch}, {Align: profile.AlignFirstRequest}, {Align: profile.AlignKeyGrid}, {Align: profile.AlignGrid}}
	if got := referenceServings(profile.FixedWindow); !slices.Equal(got, aligned) {
		t.Errorf("fixed-window: %v", got)
	}
	if got := referenceServings(profile.LeakyBucket); !slices.Equal(got, []serving{{}, {NoDelay: true}}) {
		t.Errorf("leaky-bucket: %v", got)
	}
	if got := referenceServings(profile.TokenBucket); !slices.Equal(got, []serving{{}}) {
		t.Errorf("token-bucket: %v", got)
	}
}
