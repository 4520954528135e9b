package service

import (
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

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

// Settings a profile may or may not take, by variable name.
const (
	envKey         = profile.SettingKey
	envKeyFormat   = profile.SettingKeyFormat
	envMethod      = profile.SettingMethod
	envWindowAlign = profile.SettingWindowAlign
	envDialect     = profile.SettingDialect
	envLimitedBody = profile.SettingLimitedBody
	envReset       = profile.SettingResetFormat
	envPrefix      = profile.SettingPrefix
	envStatus      = profile.SettingStatus
)

// given lists the profile settings that were set, by variable name.
func (c Config) given() []string {
	var g []string
	for env, set := range map[string]bool{
		envKey: c.Key != Key{}, envKeyFormat: c.KeyFormat != "", envMethod: c.Method != "",
		envWindowAlign: c.WindowAlign != "", envDialect: c.Dialect != dialect.Unset, envLimitedBody: c.LimitedBody.Kind != dialect.BodyUnset,
		envReset: c.ResetFormat != dialect.ResetUnset, envPrefix: c.HeaderPrefix != "", envStatus: c.LimitedStatus != 0,
		envBurst: c.Burst != 0, envRate: c.Rate != 0, envLBMode: c.LBMode != "", envDelay: c.Delay != 0,
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
	if _, err := profile.Parse(string(c.Profile), true); err != nil {
		return []error{fmt.Errorf("PROFILE: %w", err)}
	}
	if c.Profile != profile.Every {
		p := profile.Of(c.Profile)
		for _, env := range c.given() {
			if !p.TakesSetting(env) {
				errs = append(errs, fmt.Errorf("%s does not apply to PROFILE=%s: unset it", env, c.Profile))
			}
		}
		if p.TakesSetting(envWindowAlign) && !p.TakesAlign(c.WindowAlign) {
			errs = append(errs, fmt.Errorf("WINDOW_ALIGN=%s does not apply to PROFILE=%s: it takes %s", c.WindowAlign, c.Profile, profile.AlignList(p.Aligns)))
		}
		for _, f := range c.Features {
			if !slices.Contains(p.Features(), f) {
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
// takes p's default (the registry's, profiles.md's invocation table),
// FEATURES included.
func (c Config) ForProfile(p profile.Name) Config {
	d := profile.Of(p).Defaults
	c.Profile = p
	if c.Key == (Key{}) {
		c.Key = mustParse(ParseKey, d.Key)
	}
	if c.KeyFormat == "" {
		c.KeyFormat = "{{.Key}}"
	}
	if c.Method == "" {
		c.Method = d.Method
	}
	if c.Dialect == dialect.Unset {
		c.Dialect = mustParse(dialect.ParseDialect, d.Dialect)
	}
	if c.ResetFormat == dialect.ResetUnset {
		c.ResetFormat = mustParse(dialect.ParseResetFormat, d.ResetFormat)
	}
	if c.LimitedBody.Kind == dialect.BodyUnset {
		c.LimitedBody = mustParse(dialect.ParseBody, d.LimitedBody)
	}
	if c.WindowAlign == "" {
		c.WindowAlign = d.Align
	}
	if c.Features == nil {
		c.Features = slices.Clone(d.Features)
	}
	return c
}

// mustParse reads a registry default, which profile's tests parse with
// these very functions: an error here is a broken registry.
func mustParse[T any](parse func(string) (T, error), s string) T {
	v, err := parse(s)
	if err != nil {
		panic(fmt.Sprintf("profile registry: default %q: %v", s, err))
	}
	return v
}

// Claims reports whether the implementation claims feature f: FEATURES
// when set, otherwise the profile's defaults (the PRD claims fail-closed).
func (c Config) Claims(f profile.Feature) bool {
	if c.Features == nil {
		return slices.Contains(profile.Of(c.Profile).Defaults.Features, f)
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

// Only is c for one profile of PROFILE=all: Profile p, and the profile
// settings p does not take cleared.
func (c Config) Only(p profile.Name) Config {
	c.Profile = p
	takes := profile.Of(p).Takes
	for env, clear := range map[string]func(){
		envKey: func() { c.Key = Key{} }, envKeyFormat: func() { c.KeyFormat = "" }, envMethod: func() { c.Method = "" },
		envWindowAlign: func() { c.WindowAlign = "" }, envDialect: func() { c.Dialect = dialect.Unset },
		envLimitedBody: func() { c.LimitedBody = dialect.Body{} }, envReset: func() { c.ResetFormat = dialect.ResetUnset },
		envPrefix: func() { c.HeaderPrefix = "" }, envStatus: func() { c.LimitedStatus = 0 },
		envBurst: func() { c.Burst = 0 }, envRate: func() { c.Rate = 0 },
		envLBMode: func() { c.LBMode = "" }, envDelay: func() { c.Delay = 0 },
	} {
		if !slices.Contains(takes, env) {
			clear()
		}
	}
	c.Features = slices.DeleteFunc(slices.Clone(c.Features), func(f profile.Feature) bool { return !slices.Contains(profile.Of(p).Features(), f) })
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

// Params are the numbers c's profile builds its design from (no grid
// anchor: a target's is learnt, not set).
func (c Config) Params() profile.Params {
	return profile.Params{Limit: c.Limit, Window: c.Window, Burst: c.Burst, Rate: c.Rate, Align: c.WindowAlign,
		Delay: c.Delay, NoDelay: c.NoDelay(), CountsRefused: c.Claims(profile.CountsRefused)}
}

// Quota is the one quota a target of c enforces: RL_LIMIT, or the
// bucket's or queue's size its profile's entry reads (Profile.Quota).
func (c Config) Quota() int { return profile.Of(c.Profile).Quota(c.Params()) }
