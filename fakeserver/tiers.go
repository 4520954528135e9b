package fakeserver

import (
	"fmt"
	"net/http"
	"net/netip"
	"os"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/service"
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
	for _, t := range tiers {
		if _, err := tierKeyer(t, c.TrustedProxies, nil); err != nil {
			return fmt.Errorf("RL_TIERS %s: %w", path, err)
		}
	}
	c.Tiers = tiers
	return nil
}

// openTiers builds one limiter per tier on the server's store: a sliding
// log of the tier's limit and window (with the server's penalties and
// faults), for the profile whose clauses check tiers (sliding-log's SL-9).
func (s *Server) openTiers(store reference.Store, ropts []reference.Option) error {
	if len(s.cfg.Tiers) == 0 || !profile.Of(s.cfg.Profile).Checks(profile.Tiers) {
		return nil
	}
	s.tiers = map[string]limitedRoute{}
	for _, t := range s.cfg.Tiers {
		keyer, err := tierKeyer(t, s.cfg.TrustedProxies, s.keyer)
		if err != nil {
			return err
		}
		c := s.cfg
		c.Limit, c.Window = t.Limit, t.Window
		ref, err := reference.New(c.Wrap.model(c.Model()), c.Wrap.store(store), ropts...)
		if err != nil {
			return fmt.Errorf("tier %s: %w", t.Path, err)
		}
		s.tiers[t.Path] = limitedRoute{method: t.Method, ref: ref, window: t.Window, keyer: keyer}
	}
	return nil
}

// tier serves r when its path is a tier's, and reports whether it did.
func (s *Server) tier(w http.ResponseWriter, r *http.Request) bool {
	rt, ok := s.tiers[r.URL.Path]
	if !ok {
		return false
	}
	rt.bucket = TierPrefix + r.URL.Path + "|" + rt.keyer.Key(r, Ride{})
	s.serveLimited(w, r, rt)
	return true
}

// tierKeyer is how the reference keys tier t's requests: by client address
// (key "ip"), by a header of its own ("header:<Name>", the client address
// without one), or, with no key, as the profile's endpoint (profile).
func tierKeyer(t model.Tier, trusted []netip.Prefix, profile Keyer) (Keyer, error) {
	if t.Key == "" {
		return profile, nil
	}
	k, err := service.ParseKey(t.Key)
	if err != nil {
		return nil, fmt.Errorf("tier %s: key: %w", t.Path, err)
	}
	switch k.Kind {
	case service.KeyIP:
		return AddressKeyer{TrustedProxies: trusted}, nil
	case service.KeyHeader:
		return HeaderKeyer{TrustedProxies: trusted, Header: k.Name}, nil
	}
	return nil, fmt.Errorf("tier %s: key %s: the reference keys a tier by ip or header:<Name>", t.Path, k)
}
