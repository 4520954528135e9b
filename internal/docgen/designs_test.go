package docgen

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/profile"
)

// TestDesignRegions: every design's region holds its paragraph, a row of
// each core clause and the line that selects it; an unknown design has
// no region.
func TestDesignRegions(t *testing.T) {
	tb, err := newTables("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profile.All() {
		got, ok := tb.region("design:" + string(p.Name))
		if !ok {
			t.Fatalf("%s: no region", p.Name)
		}
		for _, id := range p.Core() {
			if !strings.Contains(got, "| "+string(id)+" |") {
				t.Errorf("%s: no row of %s", p.Name, id)
			}
		}
		if !strings.HasPrefix(got, p.Explain) || !strings.Contains(got, "PROFILE="+string(p.Name)+" ") {
			t.Errorf("%s: region lacks the paragraph or the PROFILE line:\n%s", p.Name, got)
		}
	}
	if _, ok := tb.region("design:no-such-design"); ok {
		t.Error("a region for an unknown design")
	}
	if sw := selectLine(profile.Of(profile.SlidingWindowCounter)); !strings.Contains(sw, "RL_LIMIT=20 RL_WINDOW=5s WINDOW_ALIGN=epoch") {
		t.Errorf("the counter's line %q", sw)
	}
}
