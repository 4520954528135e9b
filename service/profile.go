package service

import (
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/rlspec/rlspec/dialect"
)

// Profile names a rate-limiter design rlspec verifies (profiles.md).
type Profile string

// The profiles of profiles.md; ProfileAll runs every profile the target
// claims.
const (
	ProfilePRD         Profile = "prd"
	ProfileSlidingLog  Profile = "sliding-log"
	ProfileFixedWindow Profile = "fixed-window"
	ProfileTokenBucket Profile = "token-bucket"
	ProfileAll         Profile = "all"
)

// Profiles lists the profiles in the order PROFILE=all runs them.
func Profiles() []Profile {
	return []Profile{ProfilePRD, ProfileSlidingLog, ProfileFixedWindow, ProfileTokenBucket}
}

// Feature is an extended feature an implementation may claim (FEATURES).
type Feature string

// The extended features of profiles.md.
const (
	FeaturePenalties     Feature = "penalties"
	FeatureTiers         Feature = "tiers"
	FeatureBypass        Feature = "bypass"
	FeatureFailOpen      Feature = "fail-open"
	FeatureFailClosed    Feature = "fail-closed"
	FeatureMultiInstance Feature = "multi-instance"
	FeaturePersistence   Feature = "persistence"
	FeatureIETFHeaders   Feature = "ietf-headers"
	FeatureAnonymousOpen Feature = "anonymous-open" // fixed-window only
)

// features are the features any profile may claim.
var features = []Feature{FeaturePenalties, FeatureTiers, FeatureBypass, FeatureFailOpen, FeatureFailClosed,
	FeatureMultiInstance, FeaturePersistence, FeatureIETFHeaders}

// KeyKind says where an implementation finds a client's identity.
type KeyKind string

// Key kinds of the KEY setting.
const (
	KeyBody   KeyKind = "body"
	KeyHeader KeyKind = "header"
	KeyIP     KeyKind = "ip"
)

// Key is the KEY setting: body:<field>, header:<Name> or ip. The zero Key
// means "the profile's default".
type Key struct {
	Kind KeyKind
	Name string // the body field or header name; empty for ip
}

func (k Key) String() string {
	if k.Kind == KeyIP || k.Kind == "" {
		return string(k.Kind)
	}
	return string(k.Kind) + ":" + k.Name
}

// ParseKey reads body:<field>, header:<Name> or ip.
func ParseKey(s string) (Key, error) {
	s = strings.TrimSpace(s)
	if s == string(KeyIP) {
		return Key{Kind: KeyIP}, nil
	}
	kind, name, _ := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	switch KeyKind(kind) {
	case KeyBody, KeyHeader:
		if name == "" || strings.ContainsAny(name, " \t:;") {
			return Key{}, fmt.Errorf("%q names no %s", s, kind)
		}
		return Key{Kind: KeyKind(kind), Name: name}, nil
	}
	return Key{}, fmt.Errorf("%q is none of body:<field>, header:<Name>, ip", s)
}

// WindowAlign is fixed-window's WINDOW_ALIGN.
type WindowAlign string

// The alignments of a fixed window.
const (
	AlignEpoch        WindowAlign = "epoch"
	AlignFirstRequest WindowAlign = "first-request"
)

// profileRules is what a profile takes and its defaults.
type profileRules struct {
	key         Key
	method      string
	dialect     dialect.Dialect
	resetFormat dialect.ResetFormat
	limitedBody dialect.Body
	features    []Feature // claimed by default
	takes       []string  // settings beyond the contract's it accepts
	extra       []Feature // features only this profile may claim
}

// Settings a profile may or may not take, by variable name.
const (
	envKey         = "KEY"
	envKeyFormat   = "KEY_FORMAT"
	envMethod      = "TARGET_METHOD"
	envWindowAlign = "WINDOW_ALIGN"
	envDialect     = "DIALECT"
	envLimitedBody = "LIMITED_BODY"
	envReset       = "RESET_FORMAT"
	envPrefix      = "HEADER_PREFIX"
	envStatus      = "LIMITED_STATUS"
)

func rules(p Profile) profileRules {
	httpSettings := []string{envKey, envKeyFormat, envMethod, envDialect, envLimitedBody, envReset, envPrefix, envStatus}
	switch p {
	case ProfileSlidingLog:
		return profileRules{key: Key{KeyHeader, "X-User-ID"}, method: "GET", dialect: dialect.Auto,
			limitedBody: dialect.JSONBody("/error/code", "RATE_LIMITED"), takes: httpSettings}
	case ProfileFixedWindow:
		return profileRules{key: Key{KeyHeader, "X-User-ID"}, method: "GET", dialect: dialect.Auto,
			limitedBody: dialect.Body{Kind: dialect.BodyNone}, takes: append(httpSettings, envWindowAlign), extra: []Feature{FeatureAnonymousOpen}}
	case ProfileTokenBucket:
		return profileRules{key: Key{KeyHeader, "X-User-ID"}, method: "GET", dialect: dialect.Auto,
			limitedBody: dialect.Body{Kind: dialect.BodyNone}, takes: append(httpSettings, envBurst, envRate)}
	}
	// prd: the target contract fixes key, method, dialect (FR-7: unix
	// seconds) and body.
	return profileRules{key: Key{KeyBody, "device_bucket"}, method: "POST", dialect: dialect.XRateLimit, resetFormat: dialect.ResetUnix,
		limitedBody: dialect.JSONBody("/error", "rate_limited"), features: []Feature{FeatureFailClosed}}
}

// given lists the profile settings that were set, by variable name.
func (c Config) given() []string {
	var g []string
	for env, set := range map[string]bool{
		envKey: c.Key != Key{}, envKeyFormat: c.KeyFormat != "", envMethod: c.Method != "",
		envWindowAlign: c.WindowAlign != "", envDialect: c.Dialect != dialect.Unset, envLimitedBody: c.LimitedBody.Kind != dialect.BodyUnset,
		envReset: c.ResetFormat != dialect.ResetUnset, envPrefix: c.HeaderPrefix != "", envStatus: c.LimitedStatus != 0,
		envBurst: c.Burst != 0, envRate: c.Rate != 0,
	} {
		if set {
			g = append(g, env)
		}
	}
	slices.Sort(g)
	return g
}

// validateProfile reports an unknown profile or feature, or a setting the
// profile does not take, as one sentence each.
func (c Config) validateProfile() []error {
	var errs []error
	if !slices.Contains(append(Profiles(), ProfileAll), c.Profile) {
		return []error{fmt.Errorf("PROFILE=%q is not one of prd, sliding-log, fixed-window, token-bucket, all", c.Profile)}
	}
	if c.Profile != ProfileAll {
		r := rules(c.Profile)
		for _, env := range c.given() {
			if !slices.Contains(r.takes, env) {
				errs = append(errs, fmt.Errorf("%s does not apply to PROFILE=%s: unset it", env, c.Profile))
			}
		}
		for _, f := range c.Features {
			if !slices.Contains(features, f) && !slices.Contains(r.extra, f) {
				errs = append(errs, fmt.Errorf("FEATURES: %q is not a feature of PROFILE=%s", f, c.Profile))
			}
		}
	}
	if err := c.Answer().Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.KeyFormat != "" {
		if _, err := c.RenderKey("probe"); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// ForProfile returns c for one profile p: every profile setting left unset
// takes p's default (profiles.md's invocation table), FEATURES included.
func (c Config) ForProfile(p Profile) Config {
	r := rules(p)
	c.Profile = p
	if c.Key == (Key{}) {
		c.Key = r.key
	}
	if c.KeyFormat == "" {
		c.KeyFormat = "{{.Key}}"
	}
	if c.Method == "" {
		c.Method = r.method
	}
	if c.Dialect == dialect.Unset {
		c.Dialect = r.dialect
	}
	if c.ResetFormat == dialect.ResetUnset {
		c.ResetFormat = r.resetFormat
	}
	if c.LimitedBody.Kind == dialect.BodyUnset {
		c.LimitedBody = r.limitedBody
	}
	if p == ProfileFixedWindow && c.WindowAlign == "" {
		c.WindowAlign = AlignEpoch
	}
	if c.Features == nil {
		c.Features = slices.Clone(r.features)
	}
	return c
}

// Claims reports whether the implementation claims feature f: FEATURES
// when set, otherwise the profile's defaults (the PRD claims fail-closed).
func (c Config) Claims(f Feature) bool {
	if c.Features == nil {
		return slices.Contains(rules(c.Profile).features, f)
	}
	return slices.Contains(c.Features, f)
}

// RenderKey is KEY_FORMAT applied to a scenario's fresh id.
func (c Config) RenderKey(id string) (string, error) {
	f := c.KeyFormat
	if f == "" {
		f = "{{.Key}}"
	}
	t, err := template.New("key").Option("missingkey=error").Parse(f)
	if err != nil {
		return "", fmt.Errorf("KEY_FORMAT is not a Go template: %w", err)
	}
	var b strings.Builder
	if err := t.Execute(&b, struct{ Key string }{id}); err != nil {
		return "", fmt.Errorf("KEY_FORMAT: %w", err)
	}
	return b.String(), nil
}

// FeaturesOf lists the extended features profile p may claim.
func FeaturesOf(p Profile) []Feature {
	return append(slices.Clone(features), rules(p).extra...)
}

// Only is c for one profile of PROFILE=all: Profile p, and the profile
// settings p does not take cleared.
func (c Config) Only(p Profile) Config {
	c.Profile = p
	takes := rules(p).takes
	for env, clear := range map[string]func(){
		envKey: func() { c.Key = Key{} }, envKeyFormat: func() { c.KeyFormat = "" }, envMethod: func() { c.Method = "" },
		envWindowAlign: func() { c.WindowAlign = "" }, envDialect: func() { c.Dialect = dialect.Unset },
		envLimitedBody: func() { c.LimitedBody = dialect.Body{} }, envReset: func() { c.ResetFormat = dialect.ResetUnset },
		envPrefix: func() { c.HeaderPrefix = "" }, envStatus: func() { c.LimitedStatus = 0 },
		envBurst: func() { c.Burst = 0 }, envRate: func() { c.Rate = 0 },
	} {
		if !slices.Contains(takes, env) {
			clear()
		}
	}
	c.Features = slices.DeleteFunc(slices.Clone(c.Features), func(f Feature) bool { return !slices.Contains(FeaturesOf(p), f) })
	return c
}

// Answer is how the target answers (DIALECT, RESET_FORMAT, HEADER_PREFIX,
// LIMITED_STATUS, LIMITED_BODY), as package dialect reads it.
func (c Config) Answer() dialect.Settings {
	return dialect.Settings{Dialect: c.Dialect, ResetFormat: c.ResetFormat, Prefix: c.HeaderPrefix, LimitedStatus: c.LimitedStatus, Body: c.LimitedBody}
}

// WithAnswer is c answering as a (a detected dialect resolved).
func (c Config) WithAnswer(a dialect.Settings) Config {
	c.Dialect, c.ResetFormat, c.HeaderPrefix, c.LimitedStatus, c.LimitedBody = a.Dialect, a.ResetFormat, a.Prefix, a.LimitedStatus, a.Body
	return c
}
