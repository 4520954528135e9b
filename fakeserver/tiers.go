package fakeserver

import (
	"fmt"
	"net/http"
	"os"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// TierPrefix starts the bucket id of a tier's request: "tier:<path>|" and
// the profile's key, so that each tier counts on its own (SL-9).
const TierPrefix = "tier:"

// LoadTiers reads the RL_TIERS file (model.ParseTiers).
func (c *Config) LoadTiers(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("RL_TIERS: %w", err)
	}
	tiers, err := model.ParseTiers(data)
	if err != nil {
		return fmt.Errorf("RL_TIERS %s: %w", path, err)
	}
	c.Tiers = tiers
	return nil
}

// openTiers builds one limiter per tier on the server's store: a sliding
// log of the tier's limit and window (with the server's penalties and
// faults), for the sliding-log profile.
func (s *Server) openTiers(store reference.Store, ropts []reference.Option) error {
	if len(s.cfg.Tiers) == 0 || s.cfg.Profile != ProfileSlidingLog {
		return nil
	}
	s.tiers = map[string]limitedRoute{}
	for _, t := range s.cfg.Tiers {
		c := s.cfg
		c.Limit, c.Window = t.Limit, t.Window
		ref, err := reference.New(c.Wrap.model(c.Model()), c.Wrap.store(store), ropts...)
		if err != nil {
			return fmt.Errorf("tier %s: %w", t.Path, err)
		}
		s.tiers[t.Path] = limitedRoute{method: t.Method, ref: ref, window: t.Window}
	}
	return nil
}

// tier serves r when its path is a tier's, and reports whether it did.
func (s *Server) tier(w http.ResponseWriter, r *http.Request) bool {
	rt, ok := s.tiers[r.URL.Path]
	if !ok {
		return false
	}
	rt.bucket = TierPrefix + r.URL.Path + "|" + s.keyer.Key(r, Ride{})
	s.serveLimited(w, r, rt)
	return true
}
