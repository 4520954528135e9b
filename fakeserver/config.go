package fakeserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/sqlite"
)

// Defaults of the image contract.
const (
	DefaultLimit    = 500
	DefaultWindow   = time.Hour
	DefaultSentinel = 999
	// token-bucket (RL_BURST, RL_RATE): 5 tokens, 2 per second, so that a
	// drained bucket is full again in 2.5 s.
	DefaultBurst = 5
	DefaultRate  = 2.0
)

// Config is the server's whole configuration, filled at the CLI edge.
type Config struct {
	Enabled    bool          // BMTC_RATE_LIMIT_ENABLED (default true)
	Profile    profile.Name  // RL_PROFILE: a profile of the registry; "" the PRD
	Align      profile.Align // RL_WINDOW_ALIGN: fixed-window's and sliding-window-counter's windows (default epoch)
	Limit      int           // BMTC_RATE_LIMIT_PER_HOUR (default 500)
	Window     time.Duration // BMTC_RATE_LIMIT_WINDOW_SECONDS (default 1h)
	Sentinel   int           // RL_SENTINEL: Remaining when disabled (default 999)
	Burst      int           // RL_BURST: token-bucket's B (default 5)
	Rate       float64       // RL_RATE: token-bucket's and leaky-bucket's R per second (default 2)
	QueueDelay int           // RL_DELAY: leaky-bucket's queued requests answered at once (default 0)
	NoDelay    bool          // RL_LB_MODE=nodelay: leaky-bucket answers at once, frees places at R
	// GridAnchor is an instant on the one grid of RL_WINDOW_ALIGN=grid; zero:
	// the server's start.
	GridAnchor time.Time
	// Hold keeps an allowed answer back for d (a leaky bucket's turn) and
	// reports whether the client is still there; nil: a timer.
	Hold           func(ctx context.Context, d time.Duration) bool
	Penalties      []model.PenaltyTier // RL_PENALTIES: penalty tiers around the profile's design (none by default)
	IETF           bool                // RL_IETF_FIELDS: RateLimit and RateLimit-Policy beside the dialect's fields (feature ietf-headers)
	Answer         dialect.Settings    // RL_DIALECT, RL_RESET_FORMAT, RL_HEADER_PREFIX, RL_LIMITED_STATUS: how answers are written (Answers)
	RefusalBody    RefusalBody         // RL_LIMITED_BODY: json (the profile's, default), text or empty
	Bypass         http.Header         // RL_BYPASS_HEADERS: requests carrying one skip the limiter (non-PRD profiles)
	Tiers          []model.Tier        // RL_TIERS (a JSON file): more endpoints, each a sliding log of its own (sliding-log)
	Store          StoreKind           // STORE: sqlite (default) or postgres
	DBPath         string              // DB_PATH: SQLite file; "" = a fresh temp file removed on Close
	DatabaseURL    string              // DATABASE_URL: postgres://… (STORE=postgres)
	TrustedProxies []netip.Prefix
	Clock          reference.Clock // nil = wall clock
	Logger         *slog.Logger    // nil = discard
	CleanupEvery   time.Duration   // CLEANUP_EVERY: 0 = 1h
	Retention      time.Duration   // idle bucket / idempotency retention: 0 = 24h
	BusyTimeout    time.Duration   // SQLite busy timeout: 0 = 10s
	// Delay is added before every request is handled (a slow service, for
	// self-tests of timing assumptions); 0 = none.
	Delay time.Duration
	// DelayMax, above Delay, makes the delay of each request uniform in
	// [Delay, DelayMax] (an overloaded service's jitter).
	DelayMax time.Duration
	// RequireAuth, when set, is the Authorization header value every request
	// but the health check must carry (REQUIRE_AUTH, e.g. "Bearer t0ken");
	// others get 401 and spend nothing. Never logged.
	RequireAuth string
	// Wrap replaces parts of the server (rlspec's faults); the zero Wrap is
	// the reference.
	Wrap Wrap
}

// StoreKind names the reference's store.
type StoreKind string

// The stores.
const (
	StoreSQLite   StoreKind = "sqlite"
	StorePostgres StoreKind = "postgres"
)

// ParseStoreKind accepts sqlite (or "") and postgres.
func ParseStoreKind(s string) (StoreKind, error) {
	switch StoreKind(strings.ToLower(strings.TrimSpace(s))) {
	case "", StoreSQLite:
		return StoreSQLite, nil
	case StorePostgres:
		return StorePostgres, nil
	}
	return "", fmt.Errorf("%q is not a store (sqlite, postgres)", s)
}

// DefaultConfig is the image contract's defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:      true,
		Profile:      profile.PRD,
		Align:        profile.AlignEpoch,
		Store:        StoreSQLite,
		Limit:        DefaultLimit,
		Window:       DefaultWindow,
		Sentinel:     DefaultSentinel,
		Burst:        DefaultBurst,
		Rate:         DefaultRate,
		CleanupEvery: time.Hour,
		Retention:    reference.DefaultRetention,
		BusyTimeout:  sqlite.DefaultBusyTimeout,
	}
}

// Validate reports the first bad setting.
func (c Config) Validate() error {
	switch {
	case c.Limit < 1:
		return fmt.Errorf("BMTC_RATE_LIMIT_PER_HOUR: %d is not a positive integer", c.Limit)
	case c.Window < time.Second || c.Window%time.Second != 0:
		return fmt.Errorf("BMTC_RATE_LIMIT_WINDOW_SECONDS: %v is not a whole number of seconds >= 1", c.Window)
	case !validProfile(c.Profile):
		return fmt.Errorf("RL_PROFILE: %q is not a profile the reference serves (%s)", c.Profile, profile.Choices(false))
	case c.Align != "" && !slices.Contains(profile.Aligns(), c.Align):
		return fmt.Errorf("RL_WINDOW_ALIGN: %q is not one of %s", c.Align, alignChoices())
	case c.designErr() != nil: // the registry's design checks its own numbers
		return fmt.Errorf("RL_PROFILE=%s: %w", c.Profile, c.designErr())
	case c.Store != StoreSQLite && c.Store != StorePostgres:
		return fmt.Errorf("STORE: %q is not a store (sqlite, postgres)", c.Store)
	case c.Store == StorePostgres && c.DatabaseURL == "":
		return fmt.Errorf("STORE=postgres needs DATABASE_URL (postgres://…)")
	case c.CleanupEvery < 0 || c.Retention < 0 || c.BusyTimeout < 0 || c.Delay < 0 || c.DelayMax < 0:
		return fmt.Errorf("negative duration in CLEANUP_EVERY, retention, busy timeout or delay")
	case c.Answer.Dialect == dialect.Auto:
		return fmt.Errorf("RL_DIALECT: auto is rlspec's detection, not a way to answer: name a dialect")
	}
	if err := c.Answer.Validate(); err != nil {
		return fmt.Errorf("RL_%w", err)
	}
	if _, err := ParseRefusalBody(string(c.RefusalBody)); err != nil {
		return fmt.Errorf("RL_LIMITED_BODY: %w", err)
	}
	return nil
}

// ConfigFromEnv reads BMTC_RATE_LIMIT_ENABLED, BMTC_RATE_LIMIT_PER_HOUR,
// BMTC_RATE_LIMIT_WINDOW_SECONDS, RL_SENTINEL, RL_PROFILE, RL_WINDOW_ALIGN,
// RL_BURST, RL_RATE, RL_DELAY, RL_LB_MODE, RL_PENALTIES, RL_DIALECT, RL_RESET_FORMAT,
// RL_HEADER_PREFIX, RL_LIMITED_STATUS, RL_LIMITED_BODY, RL_IETF_FIELDS,
// RL_BYPASS_HEADERS, RL_TIERS,
// STORE, DB_PATH, DATABASE_URL, TRUSTED_PROXIES (comma-separated CIDRs or
// addresses), CLEANUP_EVERY (Go duration or seconds) and REQUIRE_AUTH over
// DefaultConfig.
func ConfigFromEnv(getenv func(string) (string, bool)) (Config, error) {
	c := DefaultConfig()
	get := func(k string) (string, bool) {
		v, ok := getenv(k)
		v = strings.TrimSpace(v)
		return v, ok && v != ""
	}
	err := readEnv(get, []envVar{
		{"BMTC_RATE_LIMIT_ENABLED", func(s string) (err error) { c.Enabled, err = ParseBool(s); return err }},
		{"BMTC_RATE_LIMIT_PER_HOUR", func(s string) (err error) { c.Limit, err = atLeast(s, 1); return err }},
		{"BMTC_RATE_LIMIT_WINDOW_SECONDS", func(s string) (err error) { c.Window, err = windowSeconds(s); return err }},
		{"RL_SENTINEL", func(s string) (err error) { c.Sentinel, err = atLeast(s, 0); return err }},
		{"RL_PROFILE", func(s string) (err error) { c.Profile, err = ParseProfile(s); return err }},
		{"RL_WINDOW_ALIGN", func(s string) (err error) { c.Align, err = profile.ParseAlign(s); return err }},
		{"RL_BURST", func(s string) (err error) { c.Burst, err = atLeast(s, 1); return err }},
		{"RL_RATE", func(s string) (err error) { c.Rate, err = tokenRate(s); return err }},
		{"STORE", func(s string) (err error) { c.Store, err = ParseStoreKind(s); return err }},
		{"DB_PATH", func(s string) error { c.DBPath = s; return nil }},
		{"DATABASE_URL", func(s string) error { c.DatabaseURL = s; return nil }},
	})
	if err == nil {
		err = c.leakyFromEnv(get)
	}
	if err == nil {
		err = c.answerFromEnv(get)
	}
	if err == nil {
		err = readEnv(get, []envVar{{"RL_BYPASS_HEADERS", func(s string) (err error) { c.Bypass, err = ParseBypass(s); return err }}})
	}
	if v, ok := get("RL_TIERS"); ok && err == nil {
		err = c.LoadTiers(v) // its errors name RL_TIERS
	}
	if v, ok := get("RL_PENALTIES"); ok && err == nil {
		err = c.SetPenalties(v) // its errors name RL_PENALTIES
	}
	if err == nil {
		err = readEnv(get, []envVar{
			{"TRUSTED_PROXIES", func(s string) (err error) { c.TrustedProxies, err = ParsePrefixes(s); return err }},
			{"REQUIRE_AUTH", func(s string) error { c.RequireAuth = s; return nil }},
			{"CLEANUP_EVERY", func(s string) (err error) { c.CleanupEvery, err = parseDuration(s); return err }},
		})
	}
	if err != nil {
		return c, err
	}
	return c, c.Validate()
}

// envVar is one variable a Config reads from the environment and how its
// value sets the Config.
type envVar struct {
	env string
	set func(string) error
}

// readEnv sets the variables of vars that get finds, in order; the first
// malformed one stops it, its error prefixed by the variable's name.
func readEnv(get func(string) (string, bool), vars []envVar) error {
	for _, v := range vars {
		if s, ok := get(v.env); ok {
			if err := v.set(s); err != nil {
				return fmt.Errorf("%s: %w", v.env, err)
			}
		}
	}
	return nil
}

// atLeast parses a whole number no smaller than least (1: positive, 0:
// non-negative).
func atLeast(s string, least int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < least {
		what := "positive"
		if least == 0 {
			what = "non-negative"
		}
		return 0, fmt.Errorf("%q is not a %s integer", s, what)
	}
	return n, nil
}

// windowSeconds parses a window of whole seconds, at most a (leap) year.
func windowSeconds(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > 366*24*3600 {
		return 0, fmt.Errorf("%q is not a positive number of seconds", s)
	}
	return time.Duration(n) * time.Second, nil
}

// tokenRate parses a token bucket's refill rate in tokens per second.
func tokenRate(s string) (float64, error) {
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || model.CheckTokenBucket(1, r) != nil {
		return 0, fmt.Errorf("%q is not a number of tokens per second in (0, 1000000]", s)
	}
	return r, nil
}

// ClockOrWall is the configured clock, or the wall clock when none is set.
func (c Config) ClockOrWall() reference.Clock {
	if c.Clock == nil {
		return reference.WallClock{}
	}
	return c.Clock
}

// ParseBool accepts true/false, 1/0, yes/no, on/off (any case).
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on", "t", "y":
		return true, nil
	case "0", "false", "no", "off", "f", "n":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean", s)
}

// ParsePrefixes parses comma-separated CIDR prefixes; a bare address is its
// own /32 or /128.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR prefix nor an address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func parseDuration(s string) (time.Duration, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("%q is negative", s)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return d, nil
}

// validProfile reports whether p is "" (the PRD) or a registered profile.
func validProfile(p profile.Name) bool {
	_, ok := profile.Lookup(p)
	return ok
}
