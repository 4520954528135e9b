package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault/prd"
)

func TestParseSettings(t *testing.T) {
	st, err := parse(nil, envflag.Map(nil), io.Discard)
	if err != nil || st.listen != "127.0.0.1:8080" || !st.server.Enabled || st.server.Limit != 500 {
		t.Fatalf("defaults %+v %v", st, err)
	}
	st, err = parse([]string{"-fault", "no-reset", "-limit", "3", "-enabled", "false", "-trusted-proxies", "10.0.0.0/8"},
		envflag.Map(map[string]string{"TARGET_PORT": "9000", "BMTC_RATE_LIMIT_WINDOW_SECONDS": "5", "DB_PATH": "/tmp/x.db"}), io.Discard)
	if err != nil || st.listen != "127.0.0.1:9000" || st.fault != prd.NoResetName || st.server.Limit != 3 ||
		st.server.Enabled || st.server.Window != 5*time.Second || st.server.DBPath != "/tmp/x.db" || len(st.server.TrustedProxies) != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	if st, err = parse([]string{"-delay", "20ms"}, envflag.Map(nil), io.Discard); err != nil || st.server.Delay != 20*time.Millisecond {
		t.Fatalf("-delay: %+v %v", st, err)
	}
	st, err = parse(nil, envflag.Map(map[string]string{"LISTEN_ADDR": "0.0.0.0:8080", "TARGET_PORT": "1"}), io.Discard)
	if err != nil || st.listen != "0.0.0.0:8080" {
		t.Fatalf("LISTEN_ADDR: %+v %v", st, err)
	}
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"port":   {nil, map[string]string{"TARGET_PORT": "http"}},
		"fault":  {[]string{"-fault", "nope"}, nil},
		"window": {[]string{"-window-seconds", "0"}, nil},
		"bool":   {[]string{"-enabled", "perhaps"}, nil},
		"extra":  {[]string{"stray"}, nil},
		"delay":  {[]string{"-delay", "-5ms"}, nil},
		"env":    {nil, map[string]string{"BMTC_RATE_LIMIT_PER_HOUR": "-4"}},
	} {
		if _, err := parse(tc.args, envflag.Map(tc.env), io.Discard); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The binary (built with CGO_ENABLED=0, as the image is) starts, answers
// /healthz, logs its flag state without client data, and stops cleanly on
// SIGTERM. Startup time is measured and logged; the deadline is generous.
func TestBinaryStartsAndStops(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "fakeserver")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "LISTEN_ADDR=127.0.0.1:0", "DB_PATH="+filepath.Join(t.TempDir(), "rl.db"),
		"BMTC_RATE_LIMIT_ENABLED=false")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	logs := bufio.NewReader(stderr)
	line, err := logs.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(line)
	if m == nil || !strings.Contains(line, "rate_limit_enabled=false") {
		t.Fatalf("startup log %q", line)
	}
	base := "http://" + m[1]
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + fakeserver.PathHealth)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no healthy /healthz within 10s: %v", err)
		}
	}
	t.Logf("binary answered /healthz %v after start", time.Since(start))
	if err := healthcheck(t.Context(), m[1]); err != nil {
		t.Fatalf("-healthcheck against the running binary: %v", err)
	}
	bucket := strings.Repeat("ab", 32)
	resp, err := http.Post(base+fakeserver.PathRideSummary, "application/json", strings.NewReader(`{"device_bucket":"`+bucket+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "999" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(logs)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, rest)
	}
	if err := healthcheck(t.Context(), m[1]); err == nil {
		t.Fatal("-healthcheck passed after shutdown")
	}
	all := line + string(rest)
	if !bytes.Contains(rest, []byte("msg=stopped")) || strings.Contains(all, bucket) {
		t.Fatalf("logs:\n%s", all)
	}
}
