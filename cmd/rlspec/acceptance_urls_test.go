package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
)

// TARGET_URLS replaces TARGET_URL (the first is URL, all are URLs);
// REPLICAS is read for what the command starts.
func TestAcceptanceConfigInstances(t *testing.T) {
	cmd, err := acceptanceConfig(nil, envflag.Map(map[string]string{"TARGET_URLS": " http://a:1, http://b:2 ,"}), io.Discard)
	tc := cmd.Suite.Target
	if urls := cmd.Suite.URLs; err != nil || tc.URL != "http://a:1" || strings.Join(urls, " ") != "http://a:1 http://b:2" || cmd.Replicas != 1 {
		t.Fatalf("URL %q, URLs %q, replicas %d, err %v", tc.URL, urls, cmd.Replicas, err)
	}
	cmd, err = acceptanceConfig([]string{"-replicas", "3"}, envflag.Map(nil), io.Discard)
	if err != nil || cmd.Replicas != 3 || cmd.Suite.Target.URL != "" {
		t.Fatalf("replicas %d, URL %q, err %v", cmd.Replicas, cmd.Suite.Target.URL, err)
	}
	for name, tc := range map[string]struct {
		env  map[string]string
		want string
	}{
		"bad":          {map[string]string{"TARGET_URLS": "http://a:1,localhost:2"}, `"localhost:2" is not an http(s) base URL`},
		"empty":        {map[string]string{"TARGET_URLS": " , "}, "names no URL"},
		"with-url":     {map[string]string{"TARGET_URLS": "http://a:1", "TARGET_URL": "http://b:2"}, "TARGET_URLS replaces TARGET_URL"},
		"with-image":   {map[string]string{"TARGET_URLS": "http://a:1", "TARGET_IMAGE": "x:y"}, "TARGET_URLS replaces TARGET_URL and TARGET_IMAGE"},
		"with-replica": {map[string]string{"TARGET_URLS": "http://a:1", "REPLICAS": "3"}, "REPLICAS starts instances"},
		"replicas-url": {map[string]string{"TARGET_URL": "http://a:1", "REPLICAS": "2"}, "REPLICAS needs TARGET_IMAGE or the embedded reference"},
		"replicas-0":   {map[string]string{"REPLICAS": "0"}, `REPLICAS="0" must be an integer of at least 1`},
		"replicas-sql": {map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "embedded", "REPLICAS": "2"}, "do not apply to TARGET_SQL"},
		"fault":        {map[string]string{"TARGET_URLS": "http://a:1,http://b:2"}, "unset TARGET_URL, TARGET_URLS"},
	} {
		t.Run(name, func(t *testing.T) {
			var args []string
			if name == "fault" {
				args = []string{"-fault", "process-cache"}
			}
			if _, err := acceptanceConfig(args, envflag.Map(tc.env), io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// A bad TARGET_URLS ends rlspec acceptance with exit 2 and one line,
// before anything is started.
func TestAcceptanceBadTargetURLsExits2(t *testing.T) {
	code, _, stderr := runCLI(t, 5*time.Second, map[string]string{"TARGET_URLS": "http://127.0.0.1:1,ftp://x", "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, `TARGET_URLS: "ftp://x" is not an http(s) base URL`) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// An instance of TARGET_URLS that does not answer is found by the probe:
// exit 2 naming it, not failed scenarios.
func TestAcceptanceTargetURLsProbed(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer up.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	code, _, stderr := runCLI(t, 10*time.Second, map[string]string{"TARGET_URLS": up.URL + "," + down, "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "TARGET_URLS="+down+" cannot be reached") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// REPLICAS=3 starts the embedded reference on three instances of one store
// and claims multi-instance: MI-1 passes against the reference and fails
// against process-cache (exit 1), which one instance hides (not claimed,
// exit 0).
func TestAcceptanceEmbeddedReplicas(t *testing.T) {
	for _, tc := range []struct {
		replicas, fault, want string
		code                  int
	}{
		{"3", "none", "2 scenarios: 2 passed", 0},
		{"3", "process-cache", "2 scenarios: 0 passed, 2 failed", 1},
		{"1", "process-cache", "2 skipped (2 of them not claimed)", 0},
	} {
		t.Run(tc.replicas+"-"+tc.fault, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, time.Minute, map[string]string{"REPLICAS": tc.replicas, "TAGS": "@MI-1", "REPORT_DIR": t.TempDir()}, "-fault", tc.fault)
			if code != tc.code || !strings.Contains(stdout, tc.want) {
				t.Fatalf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tc.code, tc.want, stdout, stderr)
			}
		})
	}
}
