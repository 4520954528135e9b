package loadgen

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/service"
)

// TestRequestsRenderProfile: a profile other than the PRD sends its key
// (KEY, KEY_FORMAT) with its method, one key per "bucket".
func TestRequestsRenderProfile(t *testing.T) {
	for _, tc := range []struct {
		name, key, method string
		check             func(*http.Request, []byte) string // the key sent
	}{
		{"header", "header:X-User-ID", "", func(r *http.Request, _ []byte) string { return r.Header.Get("X-User-ID") }},
		{"body", "body:user", "POST", func(r *http.Request, b []byte) string {
			if r.Header.Get("Content-Type") != "application/json" {
				return ""
			}
			return strings.TrimSuffix(strings.TrimPrefix(string(b), `{"user":"`), `"}`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := service.DefaultConfig()
			cfg.Profile, cfg.KeyFormat, cfg.Method = profile.SlidingLog, "test-{{.Key}}", tc.method
			cfg.Key, _ = service.ParseKey(tc.key)
			r, err := NewRequests(cfg, "http://127.0.0.1:9/", 3)
			if err != nil {
				t.Fatal(err)
			}
			wire, err := r.Render()
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, w := range wire {
				req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(w)))
				if err != nil {
					t.Fatalf("not a valid HTTP request: %v\n%s", err, w)
				}
				body, _ := io.ReadAll(req.Body)
				want := tc.method
				if want == "" {
					want = http.MethodGet
				}
				if req.Method != want {
					t.Errorf("method %s, want %s", req.Method, want)
				}
				k := tc.check(req, body)
				if !strings.HasPrefix(k, "test-") {
					t.Errorf("key %q not sent as %s with KEY_FORMAT\n%s", k, tc.key, w)
				}
				seen[k] = true
			}
			if len(seen) != 3 {
				t.Errorf("%d distinct keys, want 3", len(seen))
			}
		})
	}
}
