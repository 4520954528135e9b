package fakeserver

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/rlspec/rlspec/model"
)

// Profile is the design the server serves (profiles.md): the PRD's
// POST /v1/ride_summary, or a GET endpoint of another design on the same
// path, keyed by UserHeader with the client address as fallback.
type Profile string

// The profiles the reference serves.
const (
	ProfilePRD         Profile = "prd"
	ProfileSlidingLog  Profile = "sliding-log"
	ProfileFixedWindow Profile = "fixed-window"
	ProfileTokenBucket Profile = "token-bucket"
)

// Align is the fixed-window profile's window alignment.
type Align string

// The alignments (WINDOW_ALIGN).
const (
	AlignEpoch        Align = "epoch"
	AlignFirstRequest Align = "first-request"
)

// UserHeader keys the non-PRD profiles' requests (spec/002's staff id).
const UserHeader = "X-User-ID"

// UserPrefix starts the bucket id of a request keyed by UserHeader.
const UserPrefix = "user:"

// ParseProfile accepts "" (the PRD) and the profiles above.
func ParseProfile(s string) (Profile, error) {
	switch p := Profile(strings.TrimSpace(s)); p {
	case "", ProfilePRD:
		return ProfilePRD, nil
	case ProfileSlidingLog, ProfileFixedWindow, ProfileTokenBucket:
		return p, nil
	}
	return "", fmt.Errorf("%q is not a profile the reference serves (%s)", s, profileNames)
}

// profileNames lists the profiles the reference serves, for messages.
const profileNames = "prd, sliding-log, fixed-window, token-bucket"

// ParseAlign accepts "" (epoch), epoch and first-request.
func ParseAlign(s string) (Align, error) {
	switch a := Align(strings.TrimSpace(s)); a {
	case "", AlignEpoch:
		return AlignEpoch, nil
	case AlignFirstRequest:
		return a, nil
	}
	return "", fmt.Errorf("%q is neither epoch nor first-request", s)
}

// design is the profile's design, or the flag off (Model adds penalties).
func (c Config) design() model.Model {
	switch {
	case !c.Enabled:
		return model.FlagOff{Limit: c.Limit, Window: c.Window, Sentinel: c.Sentinel}
	case c.Profile == ProfileTokenBucket:
		return model.TokenBucket{Burst: c.Burst, Rate: c.Rate}
	case c.Profile == ProfileSlidingLog:
		return model.SlidingLog{Limit: c.Limit, Window: c.Window}
	case c.Profile == ProfileFixedWindow && c.Align != AlignFirstRequest:
		return model.Epoch{Limit: c.Limit, Window: c.Window}
	}
	// The PRD, and fixed-window opened by the first request (the PRD's rule).
	return model.PRD{Limit: c.Limit, Window: c.Window}
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
	if c.Profile == ProfilePRD || c.Profile == "" {
		return DeviceKeyer{TrustedProxies: c.TrustedProxies}
	}
	return HeaderKeyer{TrustedProxies: c.TrustedProxies}
}
