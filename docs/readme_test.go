package docs

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/testctx"
)

// block is one fenced ```sh readme-test [tags…] block of README.md.
type block struct {
	line int
	tags map[string]bool // docker: needs a Docker engine
	text string
}

func readmeBlocks(t *testing.T, path string) []block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []block
	var cur *block
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```sh readme-test"):
			cur = &block{line: n, tags: map[string]bool{}}
			for _, tag := range strings.Fields(strings.TrimPrefix(line, "```sh readme-test")) {
				cur.tags[tag] = true
			}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestREADMEFrontPage runs every ```sh readme-test block of README.md, in
// order, as a new user would, in a scratch HOME and directory:
//
//   - `go install …@latest` resolves through a file proxy holding this tree
//     as v0.0.1-installcheck.t<tree> (made by `make go-install-check`) into an
//     emptied module cache;
//   - release downloads come from `make dist` of this tree as v0.1.0, through
//     a `curl` on PATH that serves github.com release URLs from it;
//   - the service at 127.0.0.1:8080 / :8081 is the reference server, flag on
//     and off, at free ports the test puts in place of 8080 and 8081;
//   - blocks tagged docker run only with a Docker engine (`make image` in
//     this checkout, then the image with --network host).
//
// It takes minutes (installs, cross-builds, images), so it runs in `make
// readme-check` (RLSPEC_README_CHECK=1), which CI runs after `make test`.
func TestREADMEFrontPage(t *testing.T) {
	if os.Getenv("RLSPEC_README_CHECK") != "1" {
		t.Skip("the README front page runs in make readme-check (RLSPEC_README_CHECK=1)")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the README's binary is linux/amd64: needs a linux/amd64 host")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, filepath.Join(root, "README.md"))
	if len(blocks) < 4 {
		t.Fatalf("README.md has %d readme-test blocks; the front page needs install and run commands tested", len(blocks))
	}
	ctx := testctx.Context(t)
	tmp := t.TempDir()
	home, work, shim, releases := mkdirs(t, tmp, "home", "work", "shim", "releases")

	goEnv := func(k string) string {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	checkDir := filepath.Join(goEnv("GOCACHE"), "..", "rlspec-install-check") // the Makefile's default place: the build cache hits
	runIn(ctx, t, root, nil, "make", "-s", "go-install-check", "CHECK_DIR="+checkDir)
	runIn(ctx, t, root, nil, "make", "-s", "dist", "PLATFORMS=linux/amd64", "VERSION=v0.1.0", "DIST="+filepath.Join(releases, "v0.1.0"))
	writeCurlShim(t, shim)

	on, off := startReference(ctx, t, tmp, root, true), startReference(ctx, t, tmp, root, false)

	env := []string{
		"HOME=" + home,
		"PATH=" + strings.Join([]string{shim, filepath.Join(home, "go", "bin"), filepath.Join(home, ".local", "bin"), os.Getenv("PATH")}, string(os.PathListSeparator)),
		"GOCACHE=" + goEnv("GOCACHE"),
		"GOMODCACHE=" + filepath.Join(checkDir, "modcache"),
		"GOPROXY=file://" + filepath.Join(checkDir, "proxy") + ",file://" + filepath.Join(goEnv("GOMODCACHE"), "cache", "download"),
		"GOFLAGS=-mod=mod", "GOSUMDB=off", "GOTOOLCHAIN=local",
		"RLSPEC_RELEASES=" + releases,
		"TESTCONTAINERS_RYUK_DISABLED=true",
	}
	t.Cleanup(func() {
		c := exec.Command("go", "clean", "-modcache")
		c.Env = append(os.Environ(), "GOMODCACHE="+filepath.Join(checkDir, "modcache"))
		_ = c.Run()
	})
	docker := exec.CommandContext(ctx, "docker", "info").Run() == nil
	for _, b := range blocks {
		if b.tags["docker"] && !docker {
			t.Logf("README.md:%d: skipped: no Docker engine", b.line)
			continue
		}
		dir := work
		if strings.Contains(b.text, "make ") {
			dir = root // "built from a checkout of the release tag"
		}
		script := strings.NewReplacer("127.0.0.1:8080", on, "127.0.0.1:8081", off).Replace(b.text)
		out := runIn(ctx, t, dir, env, "bash", "--noprofile", "--norc", "-euo", "pipefail", "-c", script)
		switch {
		case strings.Contains(b.text, "go install"):
			mustContain(t, b, out, "rlspec v0.0.1-installcheck.t")
		case strings.Contains(b.text, "curl"):
			mustContain(t, b, out, "rlspec v0.1.0 ")
		case strings.Contains(b.text, "acceptance"):
			mustContain(t, b, out, " passed, 0 failed")
		}
		if strings.Contains(b.text, "/reports") {
			if _, err := os.Stat(filepath.Join(work, "reports", "junit.xml")); err != nil {
				t.Errorf("README.md:%d: the reports did not reach the mounted volume: %v", b.line, err)
			}
		}
	}
}

func mustContain(t *testing.T, b block, out, want string) {
	t.Helper()
	if !strings.Contains(out, want) {
		t.Errorf("README.md:%d: output lacks %q:\n%s", b.line, want, out)
	}
}

func mkdirs(t *testing.T, base string, names ...string) (a, b, c, d string) {
	t.Helper()
	dirs := make([]string, len(names))
	for i, n := range names {
		dirs[i] = filepath.Join(base, n)
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dirs[0], dirs[1], dirs[2], dirs[3]
}

// runIn runs name in dir and fails the test unless it exits 0.
func runIn(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// writeCurlShim puts a curl on PATH that serves
// https://github.com/rlspec/rlspec/releases/download/<tag>/<file> from
// $RLSPEC_RELEASES/<tag>/<file> (curl -O semantics) and refuses anything else.
func writeCurlShim(t *testing.T, dir string) {
	t.Helper()
	const shim = `#!/bin/sh
url=
for a; do case $a in https://github.com/rlspec/rlspec/releases/download/*) url=$a ;; esac; done
if [ -z "$url" ]; then echo "curl (README test): only rlspec release URLs are served here" >&2; exit 2; fi
f=$RLSPEC_RELEASES/${url#https://github.com/rlspec/rlspec/releases/download/}
if [ ! -f "$f" ]; then echo "curl: (22) 404 $url" >&2; exit 22; fi
cp "$f" "./${f##*/}"
`
	if err := os.WriteFile(filepath.Join(dir, "curl"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
}

// startReference runs the reference server (quota 20, window 3 s, flag on
// or off) on a free loopback port until the test ends; it returns host:port.
func startReference(ctx context.Context, t *testing.T, tmp, root string, enabled bool) string {
	t.Helper()
	bin := filepath.Join(tmp, "fakeserver")
	if _, err := os.Stat(bin); err != nil {
		runIn(ctx, t, root, nil, "go", "build", "-o", bin, "./cmd/fakeserver")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "LISTEN_ADDR="+addr, fmt.Sprintf("BMTC_RATE_LIMIT_ENABLED=%t", enabled),
		"BMTC_RATE_LIMIT_PER_HOUR=20", "BMTC_RATE_LIMIT_WINDOW_SECONDS=3", "DB_PATH="+filepath.Join(tmp, fmt.Sprintf("rl-%t.db", enabled)))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("reference on %s did not answer within 30s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond) // polling readiness, bounded by the deadline
	}
}
