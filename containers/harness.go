package containers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	tc "github.com/testcontainers/testcontainers-go"
)

// EnvTrustedProxies is the reference server's knob for the addresses whose
// X-Forwarded-For it honours; an image under test needs the same.
const EnvTrustedProxies = "TRUSTED_PROXIES"

// HarnessOptions are the extra settings of a TARGET_IMAGE start.
type HarnessOptions struct {
	Twin bool // also start the flag-off twin (AC8)
	// ClientIPsGiven: the user set CLIENT_IPS; otherwise xff is chosen.
	ClientIPsGiven bool
	// Untrusted: with CLIENT_IPS=xff, also start one instance that trusts
	// no proxy (Harness.UntrustedURL), so that EXT-XFF-01 (an
	// untrusted X-Forwarded-For never changes the key) runs against it.
	Untrusted bool
	// Postgres: the instances share one PostgreSQL (STORE=postgres,
	// DATABASE_URL), a throwaway cluster on the Docker gateway that stop
	// removes, instead of a file on a shared volume (pgstore.go).
	Postgres bool
	// Store, with Postgres, is filled with the means to take that
	// PostgreSQL away and bring it back (the fail-mode scenarios).
	Store *StoreHandle
	// Replicas > 1 starts that many flag-on instances on one store
	// (Harness.URLs; MI-1); the untrusted instance stays one.
	Replicas int
	Extra    []Option
}

// StartForHarness starts image per the image contract (limit RL_LIMIT,
// window RL_WINDOW in whole seconds, trusting the Docker gateway as a
// proxy), fills cfg.URL (and DisabledURL with the twin) and returns every
// replica's URL and the function that removes everything it started; stop
// must be called on every path. Requests through published ports reach the container from the
// Docker gateway, so per-scenario client addresses only work with
// CLIENT_IPS=xff: it is switched on unless the user chose CLIENT_IPS.
func StartForHarness(ctx context.Context, image string, cfg *service.Config, o HarnessOptions, note io.Writer) (*Harness, error) {
	return startForHarness(ctx, image, cfg, o, note)
}

// Harness is what StartForHarness started.
type Harness struct {
	URLs []string // every flag-on replica's base URL
	// UntrustedURL is the instance that trusts no proxy (Untrusted), ""
	// when none was started.
	UntrustedURL string
	stop         func() error
	restart      func(ctx context.Context) error
}

// Stop removes every container started; call it on every path.
func (h *Harness) Stop() error { return h.stop() }

// Restart stops the flag-on containers and starts them again on their
// volume and host ports (PS-1), returning once each answers again.
func (h *Harness) Restart(ctx context.Context) error { return h.restart(ctx) }

func startForHarness(ctx context.Context, image string, cfg *service.Config, o HarnessOptions, note io.Writer) (*Harness, error) {
	if cfg.Window%time.Second != 0 {
		return nil, fmt.Errorf("TARGET_IMAGE: RL_WINDOW=%s must be whole seconds (BMTC_RATE_LIMIT_WINDOW_SECONDS)", cfg.Window)
	}
	// No registry to pull testcontainers' Ryuk reaper from: everything is
	// removed by stop instead (the Makefile sets this too).
	if _, set := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !set {
		if err := os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true"); err != nil {
			return nil, fmt.Errorf("disable ryuk: %w", err)
		}
	}
	if err := Available(ctx); err != nil {
		return nil, fmt.Errorf("TARGET_IMAGE needs a Docker engine: %w", err)
	}
	gw, err := DockerGateway(ctx)
	if err != nil {
		return nil, fmt.Errorf("docker gateway: %w", err)
	}
	untrustedOpts := append([]Option{
		WithLimit(cfg.Limit),
		WithWindow(cfg.Window),
		WithEnv("RL_SENTINEL", strconv.Itoa(cfg.Sentinel)),
	}, o.Extra...)
	opts := []Option{
		WithLimit(cfg.Limit),
		WithWindow(cfg.Window),
		WithEnv(EnvTrustedProxies, netip.PrefixFrom(gw, gw.BitLen()).String()),
		WithEnv("RL_SENTINEL", strconv.Itoa(cfg.Sentinel)),
	}
	if o.Twin {
		opts = append(opts, WithDisabledTwin())
	}
	if o.Replicas > 1 {
		opts = append(opts, WithReplicas(o.Replicas))
	}
	opts = append(opts, o.Extra...)
	closeStore := func() error { return nil }
	if o.Postgres {
		pgOpts, closePG, err := sharedPostgres(ctx, gw, note, o.Store)
		if err != nil {
			return nil, err
		}
		opts, untrustedOpts, closeStore = append(opts, pgOpts...), append(untrustedOpts, pgOpts...), closePG
	}
	fmt.Fprintf(note, "starting %s (limit %d, window %s, %s=%s/%d)…\n", image, cfg.Limit, cfg.Window, EnvTrustedProxies, gw, gw.BitLen())
	var (
		started   []*Target
		untrusted string
	)
	stop := func() error {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		var errs []error
		for _, t := range started {
			errs = append(errs, t.Terminate(c))
		}
		return errors.Join(append(errs, closeStore())...)
	}
	ct, err := StartTarget(ctx, image, opts...)
	if err != nil {
		return nil, errors.Join(err, closeStore())
	}
	started = append(started, ct)
	if ct.Gateway.IsValid() && ct.Gateway != gw {
		return nil, errors.Join(fmt.Errorf("the container sees requests from %s, not the default network's gateway %s it was told to trust", ct.Gateway, gw), stop())
	}
	if xff := !o.ClientIPsGiven || cfg.ClientIPs == httpclient.XFF; o.Untrusted && xff {
		fmt.Fprintf(note, "starting one more %s without %s, for EXT-XFF-01…\n", image, EnvTrustedProxies)
		u, err := StartTarget(ctx, image, untrustedOpts...)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("the instance without trusted proxies: %w", err), stop())
		}
		started = append(started, u)
		untrusted = u.URL
	}
	// The URLs now stand for the image.
	cfg.URL = ct.URL
	if o.Twin {
		cfg.DisabledURL = ct.DisabledURL
	}
	switch {
	case !o.ClientIPsGiven:
		cfg.ClientIPs = httpclient.XFF
		fmt.Fprintf(note, "CLIENT_IPS=xff: the containers see every request come from the Docker gateway %s, which they trust as a proxy; client addresses travel in X-Forwarded-For\n", gw)
	case cfg.ClientIPs != httpclient.XFF:
		fmt.Fprintf(note, "warning: CLIENT_IPS=%s with TARGET_IMAGE: every request reaches the container from the Docker gateway %s, so per-client-address scenarios share one address\n", cfg.ClientIPs, gw)
	}
	fmt.Fprintf(note, "started %s at %s\n", image, strings.TrimSpace(ct.URL+" "+ct.DisabledURL))
	return &Harness{URLs: ct.URLs, UntrustedURL: untrusted, stop: stop, restart: ct.Restart}, nil
}

// DockerGateway is the gateway of the default bridge network testcontainers
// starts containers on: the address published-port requests come from.
// When the network's IPAM names no gateway (older engines), Docker gives
// the bridge the subnet's first address; StartForHarness checks the guess
// against what the started container reports.
func DockerGateway(ctx context.Context) (netip.Addr, error) {
	nw, err := inspectNetwork(ctx, tc.Bridge)
	if err != nil {
		return netip.Addr{}, err
	}
	for _, c := range nw.IPAM.Config {
		if c.Gateway.IsValid() {
			return c.Gateway, nil
		}
	}
	for _, c := range nw.IPAM.Config {
		if c.Subnet.IsValid() && c.Subnet.Addr().Is4() {
			return c.Subnet.Masked().Addr().Next(), nil
		}
	}
	return netip.Addr{}, fmt.Errorf("network %s has neither a gateway nor an IPv4 subnet", tc.Bridge)
}

// inspectNetwork reads the Docker network name through testcontainers'
// client (its GetNetwork takes the deprecated NetworkRequest).
func inspectNetwork(ctx context.Context, name string) (network.Inspect, error) {
	p, err := tc.NewDockerProvider()
	if err != nil {
		return network.Inspect{}, err
	}
	defer p.Close()
	res, err := p.Client().NetworkInspect(ctx, name, client.NetworkInspectOptions{})
	if err != nil {
		return network.Inspect{}, fmt.Errorf("inspect network %s: %w", name, err)
	}
	return res.Network, nil
}
