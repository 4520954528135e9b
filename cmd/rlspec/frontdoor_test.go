package main

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAcceptanceTestsNoServiceSilently: a misspelled TARGET_URL is warned
// about with the right name, and in CI a run with no target exits 2
// instead of passing on the embedded reference; an empty TARGET_URL exits
// 2 anywhere.
func TestAcceptanceTestsNoServiceSilently(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		env  map[string]string
		want []string
	}{
		"misspelled in CI": {map[string]string{"TARGET_ULR": "http://127.0.0.1:1", "CI": "true"}, []string{
			"rlspec acceptance: warning: TARGET_ULR is not a setting of rlspec acceptance; did you mean TARGET_URL?",
			"CI=true and no TARGET_URL, TARGET_URLS, TARGET_IMAGE or TARGET_SQL: no service would be tested"}},
		"empty": {map[string]string{"TARGET_URL": ""}, []string{"TARGET_URL is set but empty"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.env["REPORT_DIR"] = t.TempDir()
			code, stdout, stderr := runCLI(t, time.Minute, tc.env)
			if code != 2 {
				t.Fatalf("exit %d, want 2\n%s\n%s", code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestAcceptanceBindTowardsAnotherHostExits2: a target on another host
// (an address literal of TEST-NET-1: nothing is looked up) with the
// default CLIENT_IPS=bind is exit 2 naming CLIENT_IPS, before any request.
func TestAcceptanceBindTowardsAnotherHostExits2(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI(t, time.Minute, map[string]string{"TARGET_URL": "http://192.0.2.7:8080", "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "resolves to 192.0.2.7, not an IPv4 loopback address") || !strings.Contains(stderr, "set CLIENT_IPS=xff") {
		t.Fatalf("exit %d, want 2 naming CLIENT_IPS\n%s\n%s", code, stdout, stderr)
	}
}

// pathRecorder is a loopback server that answers 404 to everything and
// records the paths asked for.
func pathRecorder(t *testing.T) (string, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(paths)
	}
}

// TestAcceptanceURLPathIsTheEndpoint: TARGET_URL's path is the endpoint
// (not joined with /v1/ride_summary), a generic profile without one asks
// for /, and TARGET_PATH still joins.
func TestAcceptanceURLPathIsTheEndpoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, path, profile, want string
	}{
		{"/api/items", "", "fixed-window", "/api/items"},
		{"", "", "sliding-log", "/"},
		{"", "", "prd", "/v1/ride_summary"},
		{"/prefix", "/api/items", "fixed-window", "/prefix/api/items"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			base, paths := pathRecorder(t)
			env := map[string]string{"TARGET_URL": base + tc.url, "PROFILE": tc.profile, "REPORT_DIR": t.TempDir()}
			if tc.path != "" {
				env["TARGET_PATH"] = tc.path
			}
			code, stdout, stderr := runCLI(t, time.Minute, env)
			got := paths()
			if code != 2 || len(got) == 0 || !strings.Contains(stderr, "answered HTTP 404") {
				t.Fatalf("exit %d, paths %v, want 2 on the first 404\n%s\n%s", code, got, stdout, stderr)
			}
			for _, p := range got {
				if p != tc.want {
					t.Errorf("the target was asked for %s, want %s only", p, tc.want)
				}
			}
		})
	}
}
