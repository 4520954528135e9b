package service

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/profile"
)

// TestSizedForEmbedded: a generic profile's embedded run takes sizes every
// clause is decidable with — the counter's larger ones, since SWC-2 needs
// W of at least 5 s — and keeps what was given; the PRD keeps its own.
func TestSizedForEmbedded(t *testing.T) {
	for _, c := range []struct {
		p      profile.Name
		given  bool
		limit  int
		window time.Duration
	}{
		{profile.FixedWindow, false, 5, 3 * time.Second},
		{profile.SlidingWindowCounter, false, 20, 5 * time.Second},
		{profile.SlidingWindowCounter, true, 7, 9 * time.Second},
	} {
		cfg := DefaultConfig().ForProfile(c.p)
		cfg.Limit, cfg.Window = 7, 9*time.Second
		got := cfg.SizedForEmbedded(c.given, c.given)
		if got.Limit != c.limit || got.Window != c.window {
			t.Errorf("%s (given %v): N %d, W %s; want %d, %s", c.p, c.given, got.Limit, got.Window, c.limit, c.window)
		}
	}
	if w := profile.Of(profile.SlidingWindowCounter).Quick.Window; w < 5*time.Second {
		t.Errorf("the counter's quick window %s: SWC-2 needs at least 5 s", w)
	}
	prd := DefaultConfig()
	if got := prd.SizedForEmbedded(false, false); got.Limit != prd.Limit || got.Window != prd.Window {
		t.Errorf("PRD resized to %d per %s", got.Limit, got.Window)
	}
}
