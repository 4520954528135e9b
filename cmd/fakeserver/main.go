// Command fakeserver runs rlspec's reference rate-limited server (the image
// contract: TARGET_PORT, BMTC_RATE_LIMIT_ENABLED, BMTC_RATE_LIMIT_PER_HOUR,
// BMTC_RATE_LIMIT_WINDOW_SECONDS), plus FAULT, DB_PATH, TRUSTED_PROXIES,
// LISTEN_ADDR, RL_SENTINEL and CLEANUP_EVERY. Flags override the environment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/profile"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	err := run(ctx, os.Args[1:], os.LookupEnv, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		os.Exit(2)
	}
}

// settings is the command's whole configuration.
type settings struct {
	server      fakeserver.Config
	fault       fault.Name // applied to server by run
	listen      string
	logLevel    slog.Level
	healthcheck bool
}

func parse(args []string, getenv func(string) (string, bool), stderr io.Writer) (settings, error) {
	var st settings
	cfg, err := fakeserver.ConfigFromEnv(getenv)
	if err != nil {
		return st, err
	}
	listen := ""
	if v, ok := getenv("LISTEN_ADDR"); ok && strings.TrimSpace(v) != "" {
		listen = strings.TrimSpace(v)
	} else {
		port := "8080"
		if v, ok := getenv("TARGET_PORT"); ok && strings.TrimSpace(v) != "" {
			port = strings.TrimSpace(v)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			return st, fmt.Errorf("TARGET_PORT: %q is not a port", port)
		}
		listen = net.JoinHostPort("127.0.0.1", port)
	}
	fs := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&listen, "listen-addr", listen, "listen address (LISTEN_ADDR; default 127.0.0.1:$TARGET_PORT)")
	store := fs.String("store", string(cfg.Store), "the reference's store: sqlite or postgres (STORE)")
	fs.StringVar(&cfg.DBPath, "db-path", cfg.DBPath, "SQLite database file (DB_PATH; empty: a temporary file)")
	fs.StringVar(&cfg.DatabaseURL, "database-url", cfg.DatabaseURL, "PostgreSQL connection URL for -store postgres (DATABASE_URL)")
	enabled := fs.String("enabled", strconv.FormatBool(cfg.Enabled), "enforce the limit (BMTC_RATE_LIMIT_ENABLED)")
	fs.IntVar(&cfg.Limit, "limit", cfg.Limit, "quota per window (BMTC_RATE_LIMIT_PER_HOUR)")
	window := fs.Int64("window-seconds", int64(cfg.Window/time.Second), "window length in seconds (BMTC_RATE_LIMIT_WINDOW_SECONDS)")
	profileName := fs.String("profile", string(cfg.Profile), "design served: "+profile.Choices(false)+" (RL_PROFILE)")
	align := fs.String("window-align", string(cfg.Align), profile.TakenBy(profile.SettingWindowAlign)+": "+profile.AlignList(profile.Aligns())+" (RL_WINDOW_ALIGN)")
	fs.IntVar(&cfg.Burst, "burst", cfg.Burst, profile.TakenBy(profile.SettingBurst)+": the bucket's size B, or the queue's places (RL_BURST)")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, profile.TakenBy(profile.SettingRate)+": refill or drain rate R per second (RL_RATE)")
	fs.IntVar(&cfg.QueueDelay, "queue-delay", cfg.QueueDelay, profile.TakenBy(profile.SettingDelay)+": queued requests answered at once (RL_DELAY)")
	fs.BoolVar(&cfg.NoDelay, "nodelay", cfg.NoDelay, profile.TakenBy(profile.SettingLBMode)+": answer queued requests at once, free their places at R (RL_LB_MODE=nodelay)")
	fs.IntVar(&cfg.Sentinel, "sentinel", cfg.Sentinel, "X-RateLimit-Remaining when disabled (RL_SENTINEL)")
	fs.Func("dialect", "answer in x-ratelimit (default), ratelimit-fields, ratelimit-dict, ietf or status (RL_DIALECT)", into(&cfg.Answer.Dialect, fakeserver.ParseAnswerDialect))
	fs.Func("reset-format", "x-ratelimit's Reset: "+dialect.ResetFormatChoices()+"; default unix (RL_RESET_FORMAT)", into(&cfg.Answer.ResetFormat, dialect.ParseResetFormat))
	fs.Func("header-prefix", "x-ratelimit's header prefix, default X-RateLimit- (RL_HEADER_PREFIX)", into(&cfg.Answer.Prefix, dialect.ParsePrefix))
	fs.Func("limited-status", "status of a refusal, default 429 (RL_LIMITED_STATUS)", into(&cfg.Answer.LimitedStatus, dialect.ParseLimitedStatus))
	fs.Func("limited-body", "a refusal's body: json (the profile's, default), text or empty (RL_LIMITED_BODY)", into(&cfg.RefusalBody, fakeserver.ParseRefusalBody))
	fs.BoolVar(&cfg.IETF, "ietf-fields", cfg.IETF, "also RateLimit and RateLimit-Policy beside the dialect's fields, feature ietf-headers (RL_IETF_FIELDS)")
	fs.Func("bypass-headers", "';'-separated Name: value that make a request skip the limiter (RL_BYPASS_HEADERS)", func(v string) (err error) {
		cfg.Bypass, err = fakeserver.ParseBypass(v)
		return err
	})
	fs.Func("tiers", "the sliding log's tiers: JSON file of more endpoints [{\"path\",\"method\",\"limit\",\"window\"}] (RL_TIERS)", cfg.LoadTiers)
	fs.Func("penalties", "penalty tiers count:duration,… around the design, e.g. 2:4s,3:8s (RL_PENALTIES)", cfg.SetPenalties)
	envFault, _ := getenv("FAULT")
	faultName := fs.String("fault", strings.TrimSpace(envFault), "deliberate defect for self-tests (FAULT); see -list-faults")
	proxies := fs.String("trusted-proxies", "", "comma-separated CIDRs whose X-Forwarded-For is honoured (TRUSTED_PROXIES)")
	fs.DurationVar(&cfg.CleanupEvery, "cleanup-every", cfg.CleanupEvery, "retention cleanup period (CLEANUP_EVERY)")
	fs.DurationVar(&cfg.Delay, "delay", cfg.Delay, "added service delay before every request is handled, e.g. 20ms (self-tests of timing assumptions)")
	list := fs.Bool("list-faults", false, "print the faults and exit")
	debug := fs.Bool("debug", false, "log at DEBUG level")
	fs.BoolVar(&st.healthcheck, "healthcheck", false, "GET /healthz of the configured listen address and exit 0 if it answers 200 (for images without curl)")
	if err := fs.Parse(args); err != nil {
		return st, err
	}
	if *list {
		for _, f := range faults.All() {
			fmt.Fprintf(stderr, "%-22s %-12s %s\n", f.Name, f.Breaks, f.Description)
		}
		return st, flag.ErrHelp
	}
	if fs.NArg() > 0 {
		return st, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.Store, err = fakeserver.ParseStoreKind(*store); err != nil {
		return st, fmt.Errorf("-store: %w", err)
	}
	if cfg.Profile, err = fakeserver.ParseProfile(*profileName); err != nil {
		return st, fmt.Errorf("-profile: %w", err)
	}
	if cfg.Align, err = profile.ParseAlign(*align); err != nil {
		return st, fmt.Errorf("-window-align: %w", err)
	}
	if cfg.Enabled, err = fakeserver.ParseBool(*enabled); err != nil {
		return st, fmt.Errorf("-enabled: %w", err)
	}
	if *window < 1 {
		return st, fmt.Errorf("-window-seconds: %d is not positive", *window)
	}
	cfg.Window = time.Duration(*window) * time.Second
	if st.fault, err = faults.Parse(*faultName); err != nil {
		return st, fmt.Errorf("-fault: %w", err)
	}
	if *proxies != "" {
		if cfg.TrustedProxies, err = fakeserver.ParsePrefixes(*proxies); err != nil {
			return st, fmt.Errorf("-trusted-proxies: %w", err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return st, err
	}
	st.server, st.listen = cfg, listen
	if *debug {
		st.logLevel = slog.LevelDebug
	}
	return st, nil
}

func run(ctx context.Context, args []string, getenv func(string) (string, bool), stderr io.Writer) error {
	st, err := parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	if st.healthcheck {
		return healthcheck(ctx, st.listen)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: st.logLevel}))
	st.server.Logger = log
	cfg, err := faults.Apply(st.fault, st.server)
	if err != nil {
		return err
	}
	r, err := fakeserver.Start(cfg, st.listen)
	if err != nil {
		return err
	}
	// PRD §6 / §9: log the flag state at startup; no bucket ids, no client
	// addresses.
	c := st.server
	log.Info("fakeserver listening",
		"addr", r.Addr,
		"rate_limit_enabled", c.Enabled,
		"limit", c.Limit,
		"window_seconds", int64(c.Window/time.Second),
		"sentinel", c.Sentinel,
		"fault", st.fault.String(),
		"store", c.Store,
		"db", r.DBPath, // never DATABASE_URL: it may carry a password
		"trusted_proxies", len(c.TrustedProxies),
		"cleanup_every", c.CleanupEvery.String(),
		"delay", c.Delay.String(),
	)
	<-ctx.Done()
	log.Info("shutting down")
	if err := r.Close(); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// healthcheck asks the server on listen (an unspecified host means this
// machine's loopback) for /healthz.
func healthcheck(ctx context.Context, listen string) error {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+fakeserver.PathHealth, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s", resp.Status)
	}
	return nil
}

// into is a flag function setting *dst to what parse reads.
func into[T any](dst *T, parse func(string) (T, error)) func(string) error {
	return func(v string) (err error) {
		*dst, err = parse(v)
		return err
	}
}
