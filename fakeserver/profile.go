package fakeserver

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// UserHeader keys the non-PRD profiles' requests (spec/002's staff id).
const UserHeader = "X-User-ID"

// UserPrefix starts the bucket id of a request keyed by UserHeader.
const UserPrefix = "user:"

// ParseProfile accepts "" (the PRD) and the registry's profiles.
func ParseProfile(s string) (profile.Name, error) {
	p, err := profile.Parse(s, false)
	if err != nil {
		return "", fmt.Errorf("not a profile the reference serves: %w", err)
	}
	return p, nil
}

// design is the profile's design, or the flag off (Model adds penalties).
// Validate has checked the settings the registry's constructor checks.
func (c Config) design() model.Model {
	if !c.Enabled {
		return model.FlagOff{Limit: c.Limit, Window: c.Window, Sentinel: c.Sentinel}
	}
	m, err := profile.Of(c.Profile).Design(c.params())
	if err != nil {
		panic(fmt.Sprintf("fakeserver: %s design of a validated config: %v", c.Profile, err))
	}
	return m
}

// params are the numbers the profile's design is built from.
func (c Config) params() profile.Params {
	return profile.Params{Limit: c.Limit, Window: c.Window, Burst: c.Burst, Rate: c.Rate, Align: c.Align,
		Anchor: c.GridAnchor, Delay: c.QueueDelay, NoDelay: c.NoDelay}
}

// designErr is why the profile's design cannot be built from c, nil when
// it can.
func (c Config) designErr() error {
	_, err := profile.Of(c.Profile).Design(c.params())
	return err
}

// alignChoices lists RL_WINDOW_ALIGN's values for messages.
func alignChoices() string {
	var s []string
	for _, a := range profile.Aligns() {
		s = append(s, string(a))
	}
	return strings.Join(s, ", ")
}

// HeaderKeyer keys a request by UserHeader ("user:" and its value) and,
// without one, by client address as DeviceKeyer does (SL-8, FW-7).
type HeaderKeyer struct {
	TrustedProxies []netip.Prefix
	Header         string // "" UserHeader
}

var _ Keyer = HeaderKeyer{}

// Key is the bucket id.
func (k HeaderKeyer) Key(r *http.Request, _ Ride) string {
	h := k.Header
	if h == "" {
		h = UserHeader
	}
	if v := strings.TrimSpace(r.Header.Get(h)); v != "" && validIdempotencyKey(v) {
		return UserPrefix + v
	}
	return AddressKeyer{TrustedProxies: k.TrustedProxies}.Key(r, Ride{})
}

// AddressKeyer keys every request by its client address, as DeviceKeyer
// finds it (a tier keyed "ip", spec/002's authentication limits).
type AddressKeyer struct {
	TrustedProxies []netip.Prefix
}

var _ Keyer = AddressKeyer{}

// Key is the bucket id.
func (k AddressKeyer) Key(r *http.Request, _ Ride) string {
	return AddressPrefix + DeviceKeyer(k).ClientAddr(r)
}

// keyer is the profile's correct keying.
func (c Config) keyer() Keyer {
	if profile.IsPRD(c.Profile) {
		return DeviceKeyer{TrustedProxies: c.TrustedProxies}
	}
	return HeaderKeyer{TrustedProxies: c.TrustedProxies}
}
