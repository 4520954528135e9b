package main

import (
	"strings"
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
