package containers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
	tcnetwork "github.com/testcontainers/testcontainers-go/network"
)

// Environment variables of the image contract.
const (
	EnvEnabled = "BMTC_RATE_LIMIT_ENABLED"
	EnvLimit   = "BMTC_RATE_LIMIT_PER_HOUR"
	EnvWindow  = "BMTC_RATE_LIMIT_WINDOW_SECONDS"
	EnvPort    = "TARGET_PORT"
	// EnvListenAddr is read by the reference server (the image sets
	// 0.0.0.0:8080); StartTarget sets it only when the port is not 8080.
	EnvListenAddr = "LISTEN_ADDR"
	// EnvFault selects a reference-server fault for self-tests.
	EnvFault = "FAULT"
)

// DataDir is where the shared volume is mounted in each replica.
const DataDir = "/data"

// LabelManaged marks every container and volume this package creates.
const LabelManaged = "org.rlspec.managed"

// Defaults of StartTarget.
const (
	DefaultPort           = 8080
	DefaultStartupTimeout = 60 * time.Second
	DefaultStopTimeout    = 10 * time.Second
)

// Target is a running implementation: one or more flag-on replicas and,
// optionally, a flag-off twin.
type Target struct {
	// URL is the first flag-on replica's base URL, http://127.0.0.1:port.
	URL string
	// URLs are all flag-on replicas' base URLs (URLs[0] == URL).
	URLs []string
	// DisabledURL is the flag-off twin's base URL, empty without
	// WithDisabledTwin.
	DisabledURL string
	// Volume is the named volume the replicas share, empty if none.
	Volume string
	// Gateway is the address the containers see every harness request come
	// from (the Docker network's gateway: published ports are proxied), so
	// per-client-address keying cannot tell scenarios apart by source
	// address: use CLIENT_IPS=xff with the implementation trusting Gateway
	// as a proxy. Invalid when unknown.
	Gateway netip.Addr
	// NetworkURL and NetworkDisabledURL are the base URLs on the network
	// of WithNetwork (http://alias:port, http://alias-off:port), for a
	// harness in a container on that network; empty without it.
	NetworkURL, NetworkDisabledURL string

	containers []tc.Container
	on         []flagOn // the flag-on replicas, for Restart
	startup    time.Duration
	volume     string // removed by Terminate when set
	provider   *tc.DockerProvider
	stop       time.Duration
}

// StartTarget starts image per the image contract and waits, by polling,
// until every container answers HTTP. On any error everything already
// started is removed before it returns.
func StartTarget(ctx context.Context, image string, opts ...Option) (_ *Target, err error) {
	if image == "" {
		return nil, errors.New("start target: empty image name")
	}
	c := config{
		port:           DefaultPort,
		env:            map[string]string{},
		labels:         map[string]string{LabelManaged: "true"},
		replicas:       1,
		startupTimeout: DefaultStartupTimeout,
		stopTimeout:    DefaultStopTimeout,
		log:            io.Discard,
	}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, fmt.Errorf("start target: %w", err)
		}
	}
	p, err := newProvider(ctx, c.log)
	if err != nil {
		return nil, fmt.Errorf("start target: %w", err)
	}
	t := &Target{provider: p, stop: c.stopTimeout, startup: c.startupTimeout}
	defer func() {
		if err != nil {
			err = errors.Join(err, t.Terminate(ctx))
		}
	}()

	if c.volume == "" && c.replicas > 1 {
		c.volume = "rlspec-data-" + randomHex(6)
	}
	if c.volume != "" {
		if _, err := p.Client().VolumeCreate(ctx, client.VolumeCreateOptions{
			Name:   c.volume,
			Labels: c.labels,
		}); err != nil {
			return nil, fmt.Errorf("start target: create volume %s: %w", c.volume, err)
		}
		if !c.keepVolume {
			t.volume = c.volume
		}
		t.Volume = c.volume
	}

	env := contractEnv(c, true)
	for i := 0; i < c.replicas; i++ {
		u, err := t.start(ctx, image, c, env, c.volume, c.alias)
		if err != nil {
			return nil, fmt.Errorf("start target %s replica %d: %w", image, i+1, err)
		}
		t.URLs = append(t.URLs, u)
	}
	t.URL = t.URLs[0]
	if c.twin {
		u, err := t.start(ctx, image, c, contractEnv(c, false), "", c.alias+"-off")
		if err != nil {
			return nil, fmt.Errorf("start target %s flag-off twin: %w", image, err)
		}
		t.DisabledURL = u
	}
	if c.network != "" {
		t.NetworkURL = "http://" + c.alias + ":" + strconv.Itoa(c.port)
		if c.twin {
			t.NetworkDisabledURL = "http://" + c.alias + "-off:" + strconv.Itoa(c.port)
		}
	}
	return t, nil
}

// contractEnv is the environment of one container.
func contractEnv(c config, enabled bool) map[string]string {
	env := make(map[string]string, len(c.env)+5)
	for k, v := range c.env {
		env[k] = v
	}
	env[EnvEnabled] = strconv.FormatBool(enabled)
	env[EnvPort] = strconv.Itoa(c.port)
	if c.port != DefaultPort {
		if _, set := c.env[EnvListenAddr]; !set {
			env[EnvListenAddr] = "0.0.0.0:" + strconv.Itoa(c.port)
		}
	}
	if c.limit > 0 {
		env[EnvLimit] = strconv.Itoa(c.limit)
	}
	if c.window > 0 {
		env[EnvWindow] = strconv.FormatInt(int64(c.window/time.Second), 10)
	}
	return env
}

// start creates and starts one container, publishes its port on loopback
// and waits until it answers HTTP; it returns the base URL.
func (t *Target) start(ctx context.Context, image string, c config, env map[string]string, volume, alias string) (string, error) {
	port := network.MustParsePort(strconv.Itoa(c.port) + "/tcp")
	// A host port chosen here, not by Docker, so that a restarted
	// container (Restart) answers at the same URL: Docker gives a stopped
	// and started container a new ephemeral port.
	hostPort, err := freeLoopbackPort()
	if err != nil {
		return "", err
	}
	opts := []tc.ContainerCustomizer{
		tc.WithLogger(printfLogger{c.log}),
		tc.WithExposedPorts(port.String()),
		tc.WithEnv(env),
		tc.WithLabels(c.labels),
		tc.WithHostConfigModifier(func(hc *container.HostConfig) {
			hc.PortBindings = network.PortMap{port: {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: strconv.Itoa(hostPort)}}}
		}),
	}
	if volume != "" {
		opts = append(opts, tc.WithMounts(tc.VolumeMount(volume, DataDir)))
	}
	if c.network != "" {
		opts = append(opts, tcnetwork.WithNetworkName([]string{alias}, c.network))
	}
	ctr, err := tc.Run(ctx, image, opts...)
	if ctr != nil {
		// tc.Run returns the container also on a failed start: track it so
		// Terminate removes it.
		t.containers = append(t.containers, ctr)
	}
	if err != nil {
		return "", fmt.Errorf("run: %w", err)
	}
	u, gw, err := loopbackURL(ctx, ctr, port)
	if err != nil {
		// A container that exits at once loses its port bindings before we
		// read them: say that it exited, with its log.
		if exited := exitedError(ctx, ctr, "publishing its port"); exited != nil {
			return "", exited
		}
		return "", err
	}
	if !t.Gateway.IsValid() {
		t.Gateway = gw
	}
	if err := waitReady(ctx, u, c.startupTimeout, ctr); err != nil {
		return "", err
	}
	if env[EnvEnabled] == "true" {
		t.on = append(t.on, flagOn{ctr: ctr, url: u, port: port})
	}
	return u, nil
}

// flagOn is a flag-on replica: its container, base URL and container port.
type flagOn struct {
	ctr  tc.Container
	url  string
	port network.Port
}

// freeLoopbackPort is a TCP port free on 127.0.0.1 at the time of asking.
func freeLoopbackPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	return port, ln.Close()
}

// Restart stops every flag-on replica and starts it again (its volume and
// filesystem kept), then waits, by polling, until each answers HTTP at its
// URL again: how PS-1 checks that spent quota survives a restart.
func (t *Target) Restart(ctx context.Context) error {
	for _, r := range t.on {
		if err := r.ctr.Stop(ctx, &t.stop); err != nil {
			return fmt.Errorf("restart %s: stop: %w", shortID(r.ctr.GetContainerID()), err)
		}
		if err := r.ctr.Start(ctx); err != nil {
			return fmt.Errorf("restart %s: start: %w", shortID(r.ctr.GetContainerID()), err)
		}
		u, _, err := loopbackURL(ctx, r.ctr, r.port)
		if err != nil {
			return fmt.Errorf("restart %s: %w", shortID(r.ctr.GetContainerID()), err)
		}
		if u != r.url {
			return fmt.Errorf("restart %s: it came back at %s, not %s", shortID(r.ctr.GetContainerID()), u, r.url)
		}
		if err := waitReady(ctx, u, t.startup, r.ctr); err != nil {
			return fmt.Errorf("restart %s: %w", shortID(r.ctr.GetContainerID()), err)
		}
	}
	return nil
}

// loopbackURL reads the published port from the container's bindings rather
// than from testcontainers' daemon host, which inside a container is a
// gateway address the 127.0.0.1 binding does not answer on.
// It also returns the container's network gateway (invalid if none).
func loopbackURL(ctx context.Context, ctr tc.Container, port network.Port) (string, netip.Addr, error) {
	var gw netip.Addr
	info, err := ctr.Inspect(ctx)
	if err != nil {
		return "", gw, fmt.Errorf("inspect: %w", err)
	}
	if info.NetworkSettings == nil {
		return "", gw, errors.New("inspect: no network settings")
	}
	for _, n := range info.NetworkSettings.Networks {
		if n != nil && n.Gateway.IsValid() {
			gw = n.Gateway
			break
		}
	}
	for _, b := range info.NetworkSettings.Ports[port] {
		if b.HostPort != "" && b.HostPort != "0" {
			return "http://127.0.0.1:" + b.HostPort, gw, nil
		}
	}
	return "", gw, fmt.Errorf("port %s is not published", port)
}

// Terminate stops and removes every container StartTarget started, and the
// volume it created. It runs even when ctx is already cancelled (after
// Ctrl-C), bounded by its own deadline. Safe to call more than once and on
// a nil Target.
func (t *Target) Terminate(ctx context.Context) error {
	if t == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.stop+30*time.Second)
	defer cancel()
	var errs []error
	for _, ctr := range t.containers {
		if err := tc.TerminateContainer(ctr, tc.StopContext(ctx), tc.StopTimeout(t.stop)); err != nil {
			errs = append(errs, fmt.Errorf("terminate %s: %w", shortID(ctr.GetContainerID()), err))
		}
	}
	t.containers = nil
	if t.volume != "" && t.provider != nil {
		if _, err := t.provider.Client().VolumeRemove(ctx, t.volume, client.VolumeRemoveOptions{Force: true}); err != nil {
			errs = append(errs, fmt.Errorf("remove volume %s: %w", t.volume, err))
		}
		t.volume = ""
	}
	return errors.Join(errs...)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
