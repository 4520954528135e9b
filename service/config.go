package service

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

// DBSchema names the layout of the rate_limit_buckets table behind TARGET_DB.
type DBSchema string

const (
	// SchemaPRD is FR-1: quota_remaining INTEGER, reset_utc INTEGER (unix seconds).
	SchemaPRD DBSchema = "prd"
	// SchemaTokens is spec/000: tokens INTEGER, last_refill TEXT (ISO-8601 UTC).
	SchemaTokens DBSchema = "tokens"
)

// Defaults of the target contract.
const (
	DefaultPath     = "/v1/ride_summary"
	DefaultLimit    = 500
	DefaultWindow   = time.Hour
	DefaultSentinel = 999
)

// Config is what the service under test is: where it answers, what it
// limits and how (profile, key, dialect), and optional access to its state.
// Every command that talks to a service reads it; how a command runs (tags,
// strictness, reports, an image to start, a rate) is that command's own
// settings (acceptance.Settings, the race and load commands' configs). It is
// filled once at the CLI edge (flags over environment over defaults) and
// passed down by value. It holds settings only: what a run learns once the
// service is up (the instances it started, an untrusting twin, a second
// store) is the run's (acceptance.Reached, steps.Env).
type Config struct {
	URL          string              // TARGET_URL; empty: an embedded reference is started
	DisabledURL  string              // TARGET_URL_DISABLED: flag-off twin for AC8
	Path         string              // TARGET_PATH
	Headers      http.Header         // TARGET_HEADERS
	BodyTemplate string              // BODY_TEMPLATE: path of a text/template JSON file
	Limit        int                 // RL_LIMIT
	Window       time.Duration       // RL_WINDOW
	Sentinel     int                 // RL_SENTINEL
	Burst        int                 // RL_BURST: token-bucket's B; 0 not given
	Rate         float64             // RL_RATE: token-bucket's R, tokens per second; 0 not given
	LBMode       string              // LB_MODE: leaky-bucket's delay or nodelay; "" not given (delay)
	Delay        int                 // RL_DELAY: leaky-bucket's queued requests answered at once; 0 none
	DB           string              // TARGET_DB: sqlite:/abs/path.db, postgres://… or (with SQL) embedded
	SQL          string              // TARGET_SQL: spec/004's function in TARGET_DB, called directly (sqltarget)
	Schema       DBSchema            // DB_SCHEMA
	ClientIPs    httpclient.AddrMode // CLIENT_IPS

	// Profiles (profiles.md). Empty profile settings mean the profile's
	// default; ForProfile fills them.
	Profile        profile.Name        // PROFILE
	Implementation string              // IMPLEMENTATION: the name conformance.json gives the target
	Features       []profile.Feature   // FEATURES; nil: the profile's defaults, empty: none
	Key            Key                 // KEY
	KeyFormat      string              // KEY_FORMAT
	Method         string              // TARGET_METHOD
	WindowAlign    profile.Align       // WINDOW_ALIGN
	Dialect        dialect.Dialect     // DIALECT
	ResetFormat    dialect.ResetFormat // RESET_FORMAT
	HeaderPrefix   string              // HEADER_PREFIX
	LimitedStatus  int                 // LIMITED_STATUS
	LimitedBody    dialect.Body        // LIMITED_BODY
	StoreDownCmd   string              // STORE_DOWN_CMD: makes the target's store unavailable
	StoreUpCmd     string              // STORE_UP_CMD: makes it available again
	// penalties (service/penalties.go)
	Penalties    []model.PenaltyTier // RL_PENALTIES; nil: not given
	PenaltiesURL string              // TARGET_URL_PENALTIES; "": TARGET_URL
	// bypass (service/bypass.go)
	BypassHeaders http.Header // BYPASS_HEADERS; nil: not given
	// tiers (service/tiers.go)
	Tiers []model.Tier // RL_TIERS (read from its file); nil: not given
}

// DefaultConfig returns the contract's defaults.
func DefaultConfig() Config {
	return Config{
		Path:      DefaultPath,
		Headers:   http.Header{},
		Limit:     DefaultLimit,
		Window:    DefaultWindow,
		Sentinel:  DefaultSentinel,
		Schema:    SchemaPRD,
		ClientIPs: httpclient.Bind,
		Profile:   profile.PRD,
	}
}

// RegisterFlags binds the contract's settings to fs. Each flag's default is
// the environment variable of the same meaning when set (via getenv),
// otherwise the contract default; call Validate after fs.Parse.
//
// Flag names are the variable names in lower case with '-' for '_', e.g.
// -target-url, -rl-limit.
func (c *Config) RegisterFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	str := func(p *string, name, env, usage string) { envflag.StringVar(fs, getenv, p, name, env, usage) }
	str(&c.URL, "target-url", "TARGET_URL", "base URL of a running implementation; empty starts an embedded reference")
	str(&c.DisabledURL, "target-url-disabled", "TARGET_URL_DISABLED", "base URL of a second instance with BMTC_RATE_LIMIT_ENABLED=false")
	str(&c.Path, "target-path", "TARGET_PATH", "path of the endpoint, joined to every base URL; unset: TARGET_URL's own path, else /v1/ride_summary (prd) or / (other profiles)")
	str(&c.BodyTemplate, "body-template", "BODY_TEMPLATE", "JSON text/template file for request bodies")
	str(&c.DB, "target-db", "TARGET_DB", "optional state access, sqlite:/abs/path.db or postgres://…")
	str(&c.SQL, "target-sql", "TARGET_SQL", "spec/004's function to call directly in TARGET_DB (check_rate_limit); TARGET_DB=embedded starts one")
	str(&c.StoreDownCmd, "store-down-cmd", "STORE_DOWN_CMD", "shell command that makes the target's store unavailable (fail-open / fail-closed scenarios)")
	str(&c.StoreUpCmd, "store-up-cmd", "STORE_UP_CMD", "shell command that makes the target's store available again")
	fs.Var(envflag.Value(getenv, "TARGET_HEADERS", (*headerFlag)(&c.Headers)), "target-headers", "extra request headers, ';'-separated (TARGET_HEADERS)")
	fs.Var(envflag.Value(getenv, "RL_LIMIT", (*envflag.IntValue)(&c.Limit)), "rl-limit", "quota per window (RL_LIMIT)")
	fs.Var(envflag.Value(getenv, "RL_WINDOW", (*envflag.DurationValue)(&c.Window)), "rl-window", "window length, Go duration or seconds (RL_WINDOW)")
	fs.Var(envflag.Value(getenv, "RL_SENTINEL", (*envflag.IntValue)(&c.Sentinel)), "rl-sentinel", "X-RateLimit-Remaining when the flag is off (RL_SENTINEL)")
	c.registerTokenBucketFlags(fs, getenv)
	c.registerLeakyBucketFlags(fs, getenv)
	fs.Var(envflag.Value(getenv, "DB_SCHEMA", (*schemaFlag)(&c.Schema)), "db-schema", "prd or tokens (DB_SCHEMA)")
	fs.Var(envflag.Value(getenv, "CLIENT_IPS", (*clientIPsFlag)(&c.ClientIPs)), "client-ips", "bind or xff (CLIENT_IPS)")
	fs.Var(envflag.Value(getenv, "PROFILE", (*profileFlag)(&c.Profile)), "profile", profile.Choices(true)+" (PROFILE)")
	fs.Var(envflag.Value(getenv, "FEATURES", (*featuresFlag)(&c.Features)), "features", "comma list of extended features claimed; default the profile's (FEATURES)")
	fs.Var(envflag.Value(getenv, "KEY", (*keyFlag)(&c.Key)), "key", "client identity: body:<field>, header:<Name> or ip; default per profile (KEY)")
	str(&c.Implementation, "implementation", "IMPLEMENTATION", "the implementation's name in conformance.json (default: the target URL)")
	str(&c.KeyFormat, "key-format", "KEY_FORMAT", "Go template of the key's value, {{.Key}} a fresh id per scenario")
	fs.Var(envflag.Value(getenv, "TARGET_METHOD", (*methodFlag)(&c.Method)), "target-method", "request method; POST for prd, GET otherwise (TARGET_METHOD)")
	fs.Var(envflag.Value(getenv, "WINDOW_ALIGN", (*alignFlag)(&c.WindowAlign)), "window-align", profile.TakenBy(profile.SettingWindowAlign)+": epoch or first-request (WINDOW_ALIGN)")
	c.registerDialectFlags(fs, getenv)
	c.registerPenaltyFlags(fs, getenv)
	c.registerBypassFlags(fs, getenv)
	c.registerTierFlags(fs, getenv)
}

// CheckBaseURL reports whether u is an http(s) URL with a host.
func CheckBaseURL(u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("%q is not an http(s) base URL", redact.URL(u))
	}
	return nil
}

// Validate reports the first setting that cannot work, as one sentence.
func (c Config) Validate() error {
	var errs []error
	for name, u := range map[string]string{"TARGET_URL": c.URL, "TARGET_URL_DISABLED": c.DisabledURL} {
		if u == "" {
			continue
		}
		if err := CheckBaseURL(u); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q is not an http(s) base URL", name, redact.URL(u)))
		}
	}
	if !strings.HasPrefix(c.Path, "/") {
		errs = append(errs, fmt.Errorf("TARGET_PATH=%q must start with /", c.Path))
	}
	if c.Limit < 1 {
		errs = append(errs, fmt.Errorf("RL_LIMIT=%d must be at least 1", c.Limit))
	}
	if c.Window < time.Second {
		errs = append(errs, fmt.Errorf("RL_WINDOW=%s must be at least 1s", c.Window))
	}
	if c.DB == DBEmbedded {
		if c.SQL == "" {
			errs = append(errs, errors.New("TARGET_DB=embedded starts spec/004's function in a throwaway PostgreSQL and needs TARGET_SQL=check_rate_limit"))
		}
	} else if c.DB != "" && c.DBIsPostgres() {
		if u, err := url.Parse(c.DB); err != nil || (u.Host == "" && u.Query().Get("host") == "") {
			errs = append(errs, fmt.Errorf("TARGET_DB=%q is not a postgres://host/db URL", redact.DSN(c.DB)))
		}
	} else if c.DB != "" {
		if _, err := c.DBPath(); err != nil {
			errs = append(errs, err)
		}
	}
	if c.BodyTemplate != "" {
		if _, err := bodytmpl.Load(c.BodyTemplate); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, c.validateProfile()...)
	errs = append(errs, c.validateFeatures(), c.validateTokenBucket(), c.validateLeakyBucket())
	if c.URL != "" {
		errs = append(errs, c.TargetNeeds())
	}
	errs = append(errs, c.validateSQL()...)
	return errors.Join(errs...)
}

// DBPath returns the file path of TARGET_DB ("sqlite:/abs/path.db").
func (c Config) DBPath() (string, error) {
	p, ok := strings.CutPrefix(c.DB, "sqlite:")
	if !ok || !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("TARGET_DB=%q must be sqlite:/absolute/path.db or postgres://host/db", redact.DSN(c.DB))
	}
	return p, nil
}

// DBIsPostgres reports whether TARGET_DB is a PostgreSQL URL
// (postgres:// or postgresql://).
func (c Config) DBIsPostgres() bool {
	return strings.HasPrefix(c.DB, "postgres://") || strings.HasPrefix(c.DB, "postgresql://")
}

// ParseHeaders parses TARGET_HEADERS: "Name: value;Other: value".
func ParseHeaders(s string) (http.Header, error) {
	h := http.Header{}
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			// The entry may be a credential without its name: not shown.
			return nil, fmt.Errorf("TARGET_HEADERS entry %d is not 'Name: value' (entries are ';'-separated)", i+1)
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, nil
}
