package containers

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/rlspec/rlspec/internal/testctx"
	tc "github.com/testcontainers/testcontainers-go"
)

func TestStartTargetOptionErrors(t *testing.T) {
	t.Parallel()
	// Bad options are reported before Docker is touched.
	for name, opt := range map[string]Option{
		"subsecond window": WithWindow(1500 * time.Millisecond),
		"zero window":      WithWindow(0),
		"zero limit":       WithLimit(0),
		"zero replicas":    WithReplicas(0),
		"too many":         WithReplicas(65),
		"bad port":         WithPort(70000),
		"empty env":        WithEnv("", "x"),
		"empty volume":     WithVolume(""),
		"empty label":      WithLabel("", "x"),
		"zero startup":     WithStartupTimeout(0),
	} {
		t.Run(name, func(t *testing.T) {
			tg, err := StartTarget(context.Background(), "never-started:latest", opt)
			if err == nil || tg != nil {
				t.Fatalf("StartTarget accepted %s: %v", name, tg)
			}
			if !strings.HasPrefix(err.Error(), "start target: ") {
				t.Fatalf("error %q lacks context", err)
			}
		})
	}
	if _, err := StartTarget(context.Background(), ""); err == nil {
		t.Fatal("empty image accepted")
	}
}

func TestContractEnv(t *testing.T) {
	t.Parallel()
	c := config{limit: 7, window: 3 * time.Second, port: 8080, env: map[string]string{"X": "1", EnvEnabled: "ignored"}}
	on := contractEnv(c, true)
	want := map[string]string{EnvEnabled: "true", EnvLimit: "7", EnvWindow: "3", EnvPort: "8080", "X": "1"}
	for k, v := range want {
		if on[k] != v {
			t.Errorf("%s = %q, want %q", k, on[k], v)
		}
	}
	if _, set := on[EnvListenAddr]; set {
		t.Errorf("LISTEN_ADDR set for the default port: %q", on[EnvListenAddr])
	}
	if off := contractEnv(c, false); off[EnvEnabled] != "false" {
		t.Errorf("twin %s = %q", EnvEnabled, off[EnvEnabled])
	}
	c.port = 9090
	if got := contractEnv(c, true)[EnvListenAddr]; got != "0.0.0.0:9090" {
		t.Errorf("LISTEN_ADDR for port 9090 = %q", got)
	}
	c.limit, c.window = 0, 0
	unset := contractEnv(c, true)
	for _, k := range []string{EnvLimit, EnvWindow} {
		if _, set := unset[k]; set {
			t.Errorf("%s set without an option", k)
		}
	}
}

func TestStartTargetContractAndTwin(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	tg := start(t, img, runLabel(t), WithLimit(7), WithWindow(3*time.Second),
		WithFault("slow"), WithEnv("EXTRA", "yes"), WithDisabledTwin())

	if !strings.HasPrefix(tg.URL, "http://127.0.0.1:") || len(tg.URLs) != 1 || tg.URLs[0] != tg.URL {
		t.Fatalf("URL %q URLs %v", tg.URL, tg.URLs)
	}
	if !strings.HasPrefix(tg.DisabledURL, "http://127.0.0.1:") || tg.DisabledURL == tg.URL {
		t.Fatalf("DisabledURL %q (URL %q)", tg.DisabledURL, tg.URL)
	}
	if tg.Volume != "" {
		t.Fatalf("volume %q without replicas or WithVolume", tg.Volume)
	}
	for base, want := range map[string]map[string]string{
		tg.URL: {EnvEnabled: "true", EnvLimit: "7", EnvWindow: "3", EnvPort: "8080",
			EnvFault: "slow", "EXTRA": "yes", EnvListenAddr: "0.0.0.0:8080", "DB_PATH": "/data/rl.db"},
		tg.DisabledURL: {EnvEnabled: "false", EnvLimit: "7", EnvWindow: "3"},
	} {
		for k, v := range want {
			if code, got := get(t, http.MethodGet, base+"/env?name="+k, nil); code != 200 || got != v {
				t.Errorf("%s: %s = %q (%d), want %q", base, k, got, code, v)
			}
		}
	}
	assertLoopbackOnly(t, tg)

	// Whatever loopback source address the harness binds, the container sees
	// the gateway: Target.Gateway says which address that is.
	if !tg.Gateway.IsValid() {
		t.Fatal("Gateway unknown")
	}
	if code, peer := get(t, http.MethodGet, tg.URL+"/peer", nil); code != 200 || !strings.HasPrefix(peer, tg.Gateway.String()+":") {
		t.Errorf("container saw the harness as %q (%d), Gateway %s", peer, code, tg.Gateway)
	}

	ids := containerIDs(tg)
	if len(ids) != 2 {
		t.Fatalf("%d containers tracked, want 2", len(ids))
	}
	terminate(t, tg)
	assertGone(t, ids)
	terminate(t, tg) // a second Terminate is harmless
}

func TestStartTargetOtherPort(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	tg := start(t, img, runLabel(t), WithPort(9090))
	for k, v := range map[string]string{EnvPort: "9090", EnvListenAddr: "0.0.0.0:9090"} {
		if code, got := get(t, http.MethodGet, tg.URL+"/env?name="+k, nil); code != 200 || got != v {
			t.Errorf("%s = %q (%d), want %q", k, got, code, v)
		}
	}
}

func TestReplicasShareOneVolume(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	tg := start(t, img, runLabel(t), WithReplicas(3))
	if len(tg.URLs) != 3 || tg.Volume == "" || tg.DisabledURL != "" {
		t.Fatalf("URLs %v volume %q disabled %q", tg.URLs, tg.Volume, tg.DisabledURL)
	}
	seen := map[string]bool{}
	for _, u := range tg.URLs {
		if seen[u] {
			t.Fatalf("duplicate URL %s in %v", u, tg.URLs)
		}
		seen[u] = true
	}
	// Written through one replica as the image's user, read through the others.
	token := randomHex(8)
	writeData(t, tg.URLs[0], "shared", token)
	for _, u := range tg.URLs[1:] {
		readData(t, u, "shared", token)
	}
	vol := tg.Volume
	terminate(t, tg)
	assertNoVolume(t, vol)
}

func TestNamedVolumeIsKept(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	label := runLabel(t)
	name := "rlspec-test-" + randomHex(6)
	// Cleanups run last-in first-out: the volume goes before runLabel checks for leftovers.
	t.Cleanup(func() { removeVolume(t, name) })
	tg := start(t, img, label, WithVolume(name))
	token := randomHex(8)
	writeData(t, tg.URL, "kept", token)
	terminate(t, tg)
	again := start(t, img, label, WithVolume(name))
	readData(t, again.URL, "kept", token)
	terminate(t, again)
	removeVolume(t, name)
}

// writeData has the server at url write token to /data/name.
func writeData(t *testing.T, url, name, token string) {
	t.Helper()
	if code, body := get(t, http.MethodPut, url+"/file?name="+name, strings.NewReader(token)); code != http.StatusNoContent {
		t.Fatalf("write /data/%s: %d %s", name, code, body)
	}
}

// readData fails unless the server at url reads want from /data/name.
func readData(t *testing.T, url, name, want string) {
	t.Helper()
	if code, got := get(t, http.MethodGet, url+"/file?name="+name, nil); code != 200 || got != want {
		t.Fatalf("%s read /data/%s: %q (%d), want %q", url, name, got, code, want)
	}
}

func terminate(t *testing.T, tg *Target) {
	t.Helper()
	if err := tg.Terminate(context.Background()); err != nil {
		t.Fatalf("Terminate: %v", err)
	}
}

// TestStartTargetNotReady: a container that exits at once, or runs but
// never answers HTTP on its published port, is an error that says which,
// never a ready target.
func TestStartTargetNotReady(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	for name, tc := range map[string]struct {
		opts []Option
		want []string
	}{
		"exits":       {[]Option{WithEnv("CRASH", "1"), WithStartupTimeout(30 * time.Second)}, []string{"exited", "crashing on purpose"}},
		"never-ready": {[]Option{WithEnv(EnvListenAddr, "127.0.0.1:8080"), WithStartupTimeout(2 * time.Second)}, []string{"not answering HTTP"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := testctx.Context(t)
			tg, err := StartTarget(ctx, img, append([]Option{runLabel(t)}, tc.opts...)...)
			if err == nil {
				tg.Terminate(ctx)
				t.Fatal("reported ready")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error does not say %q: %v", w, err)
				}
			}
		})
	}
}

func TestStartTargetCancelled(t *testing.T) {
	t.Parallel()
	img := envserverImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	tg, err := StartTarget(ctx, img, runLabel(t), WithEnv(EnvListenAddr, "127.0.0.1:8080"))
	if err == nil {
		tg.Terminate(context.Background())
		t.Fatal("StartTarget returned a target after its context ended")
	}
}

func TestStartTargetMissingImage(t *testing.T) {
	t.Parallel()
	requireDocker(t)
	ctx := testctx.Context(t)
	_, err := StartTarget(ctx, "rlspec-no-such-image:"+randomHex(4), runLabel(t))
	if err == nil {
		t.Fatal("missing image accepted")
	}
}

func containerIDs(tg *Target) []string {
	var ids []string
	for _, c := range tg.containers {
		ids = append(ids, c.GetContainerID())
	}
	return ids
}

func assertLoopbackOnly(t *testing.T, tg *Target) {
	t.Helper()
	ctx := context.Background()
	for _, c := range tg.containers {
		info, err := c.Inspect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for port, bindings := range info.NetworkSettings.Ports {
			for _, b := range bindings {
				if b.HostIP.String() != "127.0.0.1" {
					t.Errorf("%s published on %s", port, b.HostIP)
				}
			}
		}
	}
}

// testProvider is a Docker provider for one check, closed when t ends.
func testProvider(t *testing.T) *tc.DockerProvider {
	t.Helper()
	p, err := newProvider(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func assertGone(t *testing.T, ids []string) {
	t.Helper()
	ctx := context.Background()
	p := testProvider(t)
	for _, id := range ids {
		if _, err := p.Client().ContainerInspect(ctx, id, client.ContainerInspectOptions{}); !isNotFound(err) {
			t.Errorf("container %s still there after Terminate (inspect: %v)", shortID(id), err)
		}
	}
}

func assertNoVolume(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	p := testProvider(t)
	if _, err := p.Client().VolumeInspect(ctx, name, client.VolumeInspectOptions{}); !isNotFound(err) {
		t.Errorf("volume %s still there after Terminate (inspect: %v)", name, err)
	}
}

func removeVolume(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	p := testProvider(t)
	if _, err := p.Client().VolumeRemove(ctx, name, client.VolumeRemoveOptions{Force: true}); err != nil && !isNotFound(err) {
		t.Errorf("remove volume %s: %v", name, err)
	}
}
