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
	if v, ok := get("BMTC_RATE_LIMIT_ENABLED"); ok {
		b, err := ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("BMTC_RATE_LIMIT_ENABLED: %w", err)
		}
		c.Enabled = b
	}
	if v, ok := get("BMTC_RATE_LIMIT_PER_HOUR"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("BMTC_RATE_LIMIT_PER_HOUR: %q is not a positive integer", v)
		}
		c.Limit = n
	}
	if v, ok := get("BMTC_RATE_LIMIT_WINDOW_SECONDS"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > 366*24*3600 {
			return c, fmt.Errorf("BMTC_RATE_LIMIT_WINDOW_SECONDS: %q is not a positive number of seconds", v)
		}
		c.Window = time.Duration(n) * time.Second
	}
	if v, ok := get("RL_SENTINEL"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("RL_SENTINEL: %q is not a non-negative integer", v)
		}
		c.Sentinel = n
	}
	if v, ok := get("RL_PROFILE"); ok {
		p, err := ParseProfile(v)
		if err != nil {
			return c, fmt.Errorf("RL_PROFILE: %w", err)
		}
		c.Profile = p
	}
	if v, ok := get("RL_WINDOW_ALIGN"); ok {
		a, err := profile.ParseAlign(v)
		if err != nil {
			return c, fmt.Errorf("RL_WINDOW_ALIGN: %w", err)
		}
		c.Align = a
	}
	if v, ok := get("RL_BURST"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("RL_BURST: %q is not a positive integer", v)
		}
		c.Burst = n
	}
	if v, ok := get("RL_RATE"); ok {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || model.CheckTokenBucket(1, r) != nil {
			return c, fmt.Errorf("RL_RATE: %q is not a number of tokens per second in (0, 1000000]", v)
		}
		c.Rate = r
	}
	if v, ok := get("STORE"); ok {
		k, err := ParseStoreKind(v)
		if err != nil {
			return c, fmt.Errorf("STORE: %w", err)
		}
		c.Store = k
	}
	if v, ok := get("DB_PATH"); ok {
		c.DBPath = v
	}
	if v, ok := get("DATABASE_URL"); ok {
		c.DatabaseURL = v
	}
	if err := c.leakyFromEnv(get); err != nil {
		return c, err
	}
	if err := c.answerFromEnv(get); err != nil {
		return c, err
	}
	if v, ok := get("RL_BYPASS_HEADERS"); ok {
		h, err := ParseBypass(v)
		if err != nil {
			return c, fmt.Errorf("RL_BYPASS_HEADERS: %w", err)
		}
		c.Bypass = h
	}
	if v, ok := get("RL_TIERS"); ok {
		if err := c.LoadTiers(v); err != nil {
			return c, err
		}
	}
	if v, ok := get("RL_PENALTIES"); ok {
		if err := c.SetPenalties(v); err != nil {
			return c, err
		}
	}
	if v, ok := get("TRUSTED_PROXIES"); ok {
		ps, err := ParsePrefixes(v)
		if err != nil {
			return c, fmt.Errorf("TRUSTED_PROXIES: %w", err)
		}
		c.TrustedProxies = ps
	}
	if v, ok := get("REQUIRE_AUTH"); ok {
		c.RequireAuth = v
	}
	if v, ok := get("CLEANUP_EVERY"); ok {
		d, err := parseDuration(v)
		if err != nil {
			return c, fmt.Errorf("CLEANUP_EVERY: %w", err)
		}
		c.CleanupEvery = d
	}
	return c, c.Validate()
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
