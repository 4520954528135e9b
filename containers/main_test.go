package containers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/rlspec/rlspec/internal/testctx"
)

func TestMain(m *testing.M) {
	// No registry here, so no Ryuk sidecar; every test cleans up itself.
	os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	code := m.Run()
	for _, tag := range []string{envserverBuild.tag, referenceBuild.tag} {
		if tag == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := removeImage(ctx, tag); err != nil {
			fmt.Fprintln(os.Stderr, "remove test image:", err)
		}
		cancel()
	}
	os.Exit(code)
}

// requireDocker skips the test with a one-line reason when no Docker engine
// answers.
func requireDocker(t *testing.T) {
	t.Helper()
	ctx := testctx.Context(t)
	if err := Available(ctx); err != nil {
		t.Skip("docker not available: " + firstLine(err.Error()))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// builtOnce is an image this test binary builds once, under a tag of its
// own (removed by TestMain), so that another checkout's tests building the
// same image at the same time cannot swap it.
type builtOnce struct {
	once sync.Once
	tag  string
	err  error
}

// build builds package pkg's image as tag the first time it is asked for
// (t is skipped without Docker), and fails t if that build failed.
func (b *builtOnce) build(t *testing.T, tag, pkg string) string {
	t.Helper()
	requireDocker(t)
	b.once.Do(func() {
		ctx := testctx.Context(t)
		if b.err = BuildImage(ctx, tag, WithPackage(pkg)); b.err == nil {
			b.tag = tag
		}
	})
	if b.err != nil {
		t.Fatalf("build %s: %v", tag, b.err)
	}
	return b.tag
}

// envserverBuild and referenceBuild are the envserver's and the
// reference's images.
var envserverBuild, referenceBuild builtOnce

func envserverImage(t *testing.T) string {
	return envserverBuild.build(t, "rlspec-envserver-test:"+randomHex(6), "./internal/envserver")
}

func buildReference(t *testing.T) string {
	return referenceBuild.build(t, "rlspec-reference:test-"+randomHex(4), ReferencePackage)
}

func removeImage(ctx context.Context, tag string) error { return RemoveImage(ctx, tag) }

// runLabel returns a label unique to the test and asserts, at cleanup, that
// no container or volume carrying it is left.
func runLabel(t *testing.T) Option {
	t.Helper()
	value := randomHex(8)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ctrs, vols, err := leftovers(ctx, value)
		if err != nil {
			t.Errorf("list leftovers: %v", err)
			return
		}
		if len(ctrs)+len(vols) > 0 {
			t.Errorf("left behind: containers %v, volumes %v", ctrs, vols)
		}
	})
	return WithLabel("org.rlspec.test", value)
}

func leftovers(ctx context.Context, value string) (ctrs, vols []string, err error) {
	p, err := newProvider(ctx, io.Discard)
	if err != nil {
		return nil, nil, err
	}
	defer p.Close()
	f := client.Filters{}.Add("label", "org.rlspec.test="+value)
	cl, err := p.Client().ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return nil, nil, err
	}
	for _, c := range cl.Items {
		ctrs = append(ctrs, shortID(c.ID))
	}
	vl, err := p.Client().VolumeList(ctx, client.VolumeListOptions{Filters: f})
	if err != nil {
		return nil, nil, err
	}
	for _, v := range vl.Items {
		vols = append(vols, v.Name)
	}
	return ctrs, vols, nil
}

// start starts a target and registers its Terminate as cleanup.
func start(t *testing.T, image string, opts ...Option) *Target {
	t.Helper()
	ctx := testctx.Context(t)
	tg, err := StartTarget(ctx, image, append([]Option{WithLog(testWriter{t})}, opts...)...)
	if err != nil {
		t.Fatalf("StartTarget: %v", err)
	}
	t.Cleanup(func() {
		if err := tg.Terminate(context.Background()); err != nil {
			t.Errorf("Terminate: %v", err)
		}
	})
	return tg
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// get does one request and returns status and body.
func get(t *testing.T, method, url string, body io.Reader) (int, string) {
	t.Helper()
	ctx := testctx.Context(t)
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, url, err)
	}
	return resp.StatusCode, string(b)
}

func isNotFound(err error) bool { return cerrdefs.IsNotFound(err) }
