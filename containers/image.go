package containers

import (
	"archive/tar"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
)

// Reference image defaults.
const (
	// ReferenceImage is the tag `make image` builds.
	ReferenceImage = "rlspec-reference:latest"
	// ReferencePackage is the reference server's main package.
	ReferencePackage = "github.com/rlspec/rlspec/cmd/fakeserver"
)

// referenceDockerfile is the Dockerfile of every image BuildImage builds.
//
//go:embed reference.Dockerfile
var referenceDockerfile []byte

type buildConfig struct {
	pkg    string
	dir    string
	goarch string
	log    io.Writer
}

// BuildOption configures BuildImage.
type BuildOption func(*buildConfig) error

// WithPackage sets the main package compiled into the image (an import
// path or a ./relative path, resolved in the build directory); default
// ReferencePackage.
func WithPackage(pkg string) BuildOption {
	return func(c *buildConfig) error {
		if pkg == "" {
			return errors.New("empty package")
		}
		c.pkg = pkg
		return nil
	}
}

// WithBuildDir sets the directory `go build` runs in (inside the module);
// default the current directory.
func WithBuildDir(dir string) BuildOption {
	return func(c *buildConfig) error { c.dir = dir; return nil }
}

// WithBuildLog sends the go and docker build output to w (default discarded).
func WithBuildLog(w io.Writer) BuildOption {
	return func(c *buildConfig) error {
		if w == nil {
			w = io.Discard
		}
		c.log = w
		return nil
	}
}

// BuildReferenceImage builds ReferenceImage from ReferencePackage.
func BuildReferenceImage(ctx context.Context, opts ...BuildOption) error {
	return BuildImage(ctx, ReferenceImage, opts...)
}

// RemoveImage removes the image tag (and its untagged parents).
func RemoveImage(ctx context.Context, tag string) error {
	p, err := newProvider(ctx, io.Discard)
	if err != nil {
		return fmt.Errorf("remove image %s: %w", tag, err)
	}
	defer p.Close()
	if _, err := p.Client().ImageRemove(ctx, tag, client.ImageRemoveOptions{Force: true, PruneChildren: true}); err != nil {
		return fmt.Errorf("remove image %s: %w", tag, err)
	}
	return nil
}

// BuildImage compiles a main package as a static Linux binary
// (CGO_ENABLED=0 go build -trimpath -ldflags="-s -w") for the engine's
// architecture and builds the FROM scratch image tag from it through the
// Docker API: a writable /data (DB_PATH=/data/rl.db) and /tmp, user 65532,
// LISTEN_ADDR=0.0.0.0:8080, port 8080. The image is kept.
func BuildImage(ctx context.Context, tag string, opts ...BuildOption) error {
	return build(ctx, tag, func(c buildConfig) imageSpec {
		return imageSpec{
			dockerfile: referenceDockerfile,
			binaries:   []binary{{name: "server", pkg: c.pkg}},
			dirs:       []dir{{"data/", 0o755}, {"tmp/", 0o755}},
		}
	}, opts)
}

// imageSpec is the build context of one image: its Dockerfile, the static
// binaries compiled into it and the empty directories it copies.
type imageSpec struct {
	dockerfile []byte
	binaries   []binary
	dirs       []dir
}

type binary struct{ name, pkg string }

type dir struct {
	name string
	mode int64
}

// build compiles spec's binaries for the engine's architecture and builds
// tag from them.
func build(ctx context.Context, tag string, specOf func(buildConfig) imageSpec, opts []BuildOption) error {
	if tag == "" {
		return errors.New("build image: empty tag")
	}
	repo, version, ok := strings.Cut(tag, ":")
	if !ok {
		version = "latest"
	}
	c := buildConfig{pkg: ReferencePackage, log: io.Discard}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return fmt.Errorf("build image: %w", err)
		}
	}
	spec := specOf(c)
	p, err := newProvider(ctx, c.log)
	if err != nil {
		return fmt.Errorf("build image: %w", err)
	}
	defer p.Close()
	ver, err := p.Client().ServerVersion(ctx, client.ServerVersionOptions{})
	if err != nil {
		return fmt.Errorf("build image: docker version: %w", err)
	}
	if ver.Os != "" && ver.Os != "linux" {
		return fmt.Errorf("build image: docker engine runs %s containers, need linux", ver.Os)
	}
	c.goarch = ver.Arch

	bins := make(map[string][]byte, len(spec.binaries))
	for _, b := range spec.binaries {
		if bins[b.name], err = compile(ctx, c, b.pkg); err != nil {
			return fmt.Errorf("build image: %w", err)
		}
	}
	archive, err := buildContext(spec, bins)
	if err != nil {
		return fmt.Errorf("build image: %w", err)
	}
	req := &tc.ContainerRequest{FromDockerfile: tc.FromDockerfile{
		ContextArchive: bytes.NewReader(archive),
		Repo:           repo,
		Tag:            version,
		BuildLogWriter: c.log,
		KeepImage:      true,
		BuildOptionsModifier: func(o *client.ImageBuildOptions) {
			o.Remove, o.ForceRemove = true, true
		},
	}}
	var previous string
	if img, err := p.Client().ImageInspect(ctx, tag); err == nil {
		previous = img.ID
	}
	if _, err := p.BuildImage(ctx, req); err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	// The rebuilt tag leaves its previous image dangling: remove it, unless
	// something still uses it (then the engine refuses, which is fine).
	if img, err := p.Client().ImageInspect(ctx, tag); err == nil && previous != "" && img.ID != previous {
		_, _ = p.Client().ImageRemove(ctx, previous, client.ImageRemoveOptions{})
	}
	return nil
}

// compile builds the static binary and returns its bytes.
func compile(ctx context.Context, c buildConfig, pkg string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "rlspec-image-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "server")
	// No deadline of its own: a cold CGO_ENABLED=0 build beside other
	// compiles on a starved runner takes minutes, and the caller's ctx
	// (the test binary's deadline, the command's signal) bounds it.
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if c.goarch != "" {
		cmd.Env = append(cmd.Env, "GOARCH="+c.goarch)
	}
	var stderr bytes.Buffer
	cmd.Stdout = c.log
	cmd.Stderr = io.MultiWriter(c.log, &stderr)
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build %s: %w: %s", pkg, err, bytes.TrimSpace(stderr.Bytes()))
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("read binary: %w", err)
	}
	return bin, nil
}

// buildContext returns the tar build context: the Dockerfile, the
// binaries (mode 0755) and the empty directories.
func buildContext(spec imageSpec, bins map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mod := time.Unix(0, 0)
	type file struct {
		name string
		mode int64
		body []byte
	}
	files := []file{{"Dockerfile", 0o644, spec.dockerfile}}
	for _, b := range spec.binaries {
		files = append(files, file{b.name, 0o755, bins[b.name]})
	}
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), ModTime: mod}); err != nil {
			return nil, fmt.Errorf("tar %s: %w", f.name, err)
		}
		if _, err := tw.Write(f.body); err != nil {
			return nil, fmt.Errorf("tar %s: %w", f.name, err)
		}
	}
	for _, d := range spec.dirs {
		if err := tw.WriteHeader(&tar.Header{Name: d.name, Typeflag: tar.TypeDir, Mode: d.mode, ModTime: mod}); err != nil {
			return nil, fmt.Errorf("tar %s: %w", d.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("tar: %w", err)
	}
	return buf.Bytes(), nil
}
