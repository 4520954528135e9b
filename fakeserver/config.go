package fakeserver

import (
	"fmt"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/reference"
)

// Config is the server's whole configuration, filled at the CLI edge.
type Config struct {
	Enabled        bool          // BMTC_RATE_LIMIT_ENABLED (default true)
	Limit          int           // BMTC_RATE_LIMIT_PER_HOUR (default 500)
	Window         time.Duration // BMTC_RATE_LIMIT_WINDOW_SECONDS (default 1h)
	Sentinel       int           // RL_SENTINEL: Remaining when disabled (default 999)
	DBPath         string        // DB_PATH: SQLite file; "" = a fresh temp file removed on Close
	TrustedProxies []netip.Prefix
	Fault          Fault
	Clock          reference.Clock // nil = wall clock
	Logger         *slog.Logger    // nil = discard
	CleanupEvery   time.Duration   // CLEANUP_EVERY: 0 = 1h
	Retention      time.Duration   // idle bucket / idempotency retention: 0 = 24h
	BusyTimeout    time.Duration   // SQLite busy timeout: 0 = 10s
}

// DefaultConfig is the image contract's defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:      true,
		Limit:        reference.DefaultLimit,
		Window:       reference.DefaultWindow,
		Sentinel:     reference.DefaultSentinel,
		CleanupEvery: time.Hour,
		Retention:    reference.DefaultRetention,
		BusyTimeout:  reference.DefaultBusyTimeout,
	}
}

// Validate reports the first bad setting.
func (c Config) Validate() error {
	switch {
	case c.Limit < 1:
		return fmt.Errorf("BMTC_RATE_LIMIT_PER_HOUR: %d is not a positive integer", c.Limit)
	case c.Window < time.Second || c.Window%time.Second != 0:
		return fmt.Errorf("BMTC_RATE_LIMIT_WINDOW_SECONDS: %v is not a whole number of seconds >= 1", c.Window)
	case c.CleanupEvery < 0 || c.Retention < 0 || c.BusyTimeout < 0:
		return fmt.Errorf("negative duration in CLEANUP_EVERY, retention or busy timeout")
	}
	if _, err := ParseFault(string(c.Fault)); err != nil {
		return fmt.Errorf("FAULT: %w", err)
	}
	return nil
}

// ConfigFromEnv reads BMTC_RATE_LIMIT_ENABLED, BMTC_RATE_LIMIT_PER_HOUR,
// BMTC_RATE_LIMIT_WINDOW_SECONDS, RL_SENTINEL, FAULT, DB_PATH,
// TRUSTED_PROXIES (comma-separated CIDRs or addresses) and CLEANUP_EVERY
// (Go duration or seconds) over DefaultConfig.
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
	if v, ok := get("FAULT"); ok {
		f, err := ParseFault(v)
		if err != nil {
			return c, fmt.Errorf("FAULT: %w", err)
		}
		c.Fault = f
	}
	if v, ok := get("DB_PATH"); ok {
		c.DBPath = v
	}
	if v, ok := get("TRUSTED_PROXIES"); ok {
		ps, err := ParsePrefixes(v)
		if err != nil {
			return c, fmt.Errorf("TRUSTED_PROXIES: %w", err)
		}
		c.TrustedProxies = ps
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
