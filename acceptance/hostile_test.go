package acceptance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// hostile is a tiny limiter (keyed by device_bucket or peer address) whose
// responses a test spoils on purpose.
type hostile struct {
	limit int
	// spoil changes a response before it is written; it may hijack.
	spoil func(w http.ResponseWriter, r *http.Request, status int, h http.Header, body []byte) bool
	mu    sync.Mutex
	left  map[string]int
	reset map[string]int64
}

func (s *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":"bad_request"}`, http.StatusBadRequest)
		return
	}
	key, _ := body["device_bucket"].(string)
	if len(key) != 64 {
		key = "ip:" + strings.Split(r.RemoteAddr, ":")[0]
	}
	s.mu.Lock()
	left, ok := s.left[key]
	if !ok {
		left = s.limit
		s.reset[key] = time.Now().Add(time.Hour).Unix()
	}
	status, out := http.StatusOK, []byte(`{"status":"accepted"}`)
	if left == 0 {
		status, out = http.StatusTooManyRequests, []byte(`{"error":"rate_limited"}`)
	} else {
		left--
	}
	s.left[key] = left
	h := http.Header{}
	h.Set(dialect.HeaderLimit, strconv.Itoa(s.limit))
	h.Set(dialect.HeaderRemaining, strconv.Itoa(left))
	h.Set(dialect.HeaderReset, strconv.FormatInt(s.reset[key], 10))
	if status == http.StatusTooManyRequests {
		h.Set(dialect.HeaderRetryAfter, "60")
	}
	h.Set("Content-Type", "application/json")
	s.mu.Unlock()
	if s.spoil != nil && s.spoil(w, r, status, h, out) {
		return
	}
	for k, v := range h {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

func startHostile(t *testing.T, spoil func(http.ResponseWriter, *http.Request, int, http.Header, []byte) bool) string {
	t.Helper()
	srv := httptest.NewServer(&hostile{limit: 3, spoil: spoil, left: map[string]int{}, reset: map[string]int64{}})
	t.Cleanup(srv.Close)
	return srv.URL
}

// runHostile runs the scenarios of tags against url and returns the
// results; the run must end within a minute and with exit 1.
func runHostile(t *testing.T, url, tags string) []steps.ScenarioResult {
	t.Helper()
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.URL, tc.Limit, set.Tags = url, 3, tags
	rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set}, WithoutReports(), WithRequestTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatalf("could not run: %v", err)
	}
	if rep.ExitCode() != 1 {
		t.Fatalf("exit %d, want 1: %+v", rep.ExitCode(), rep.Results)
	}
	return rep.Results
}

// wantViolation finds the result id and checks its violation names clause
// and says what came back.
func wantViolation(t *testing.T, rs []steps.ScenarioResult, id string, c clause.ID, actual string) {
	t.Helper()
	for _, r := range rs {
		if r.ID != id {
			continue
		}
		if r.Status != steps.Failed || r.Violation == nil {
			t.Fatalf("%s: %s %q, want a violation", id, r.Status, r.Reason)
		}
		if !r.Violation.Clause.Has(c) || !strings.Contains(r.Violation.Actual, actual) {
			t.Fatalf("%s: violation %q / %q, want clause %q and actual containing %q", id, r.Violation.Clause, r.Violation.Actual, c, actual)
		}
		return
	}
	t.Fatalf("%s did not run", id)
}

// sanity: the hostile server without spoiling passes AC1.
func TestHostileBaselinePasses(t *testing.T) {
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.URL, tc.Limit, set.Tags = startHostile(t, nil), 3, clause.AC1.Tag()
	rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set}, WithoutReports())
	if err != nil || rep.ExitCode() != 0 {
		t.Fatalf("baseline: %v %+v", err, rep)
	}
}

func TestHostileSlowServer(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	url := startHostile(t, func(w http.ResponseWriter, r *http.Request, _ int, _ http.Header, _ []byte) bool {
		select { // answer nothing until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
		return true
	})
	rs := runHostile(t, url, "@id:AC1-01")
	wantViolation(t, rs, "AC1-01", clause.FR7, "no response within 500ms")
}

func TestHostileConnectionClosedMidResponse(t *testing.T) {
	url := startHostile(t, func(w http.ResponseWriter, _ *http.Request, _ int, _ http.Header, _ []byte) bool {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return false
		}
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nX-RateLimit-Limit: 3\r\n\r\n{\"sta")
		_ = buf.Flush()
		conn.Close()
		return true
	})
	rs := runHostile(t, url, "@id:AC1-01")
	wantViolation(t, rs, "AC1-01", clause.FR7, "unexpected EOF")
}

func TestHostileGarbageHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, header, value, actual string
	}{
		{"non-integer", dialect.HeaderRemaining, "two", `X-RateLimit-Remaining: "two" is not a non-negative integer`},
		{"negative", dialect.HeaderRemaining, "-1", `X-RateLimit-Remaining: "-1" is not a non-negative integer`},
		{"float reset", dialect.HeaderReset, "1.5e9", `X-RateLimit-Reset: "1.5e9" is not unix seconds (RESET_FORMAT=unix)`},
		{"missing", dialect.HeaderLimit, "", "X-RateLimit-Limit is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := startHostile(t, func(w http.ResponseWriter, _ *http.Request, status int, h http.Header, body []byte) bool {
				if tc.value == "" {
					h.Del(tc.header)
				} else {
					h.Set(tc.header, tc.value)
				}
				for k, v := range h {
					w.Header()[k] = v
				}
				w.WriteHeader(status)
				_, _ = w.Write(body)
				return true
			})
			rs := runHostile(t, url, clause.FR7.Tag()+","+clause.AC1.Tag())
			wantViolation(t, rs, "FR-7-02", clause.FR7, tc.actual)
			wantViolation(t, rs, "AC1-01", clause.FR7, tc.actual)
		})
	}
}

func TestHostileHTMLOn429(t *testing.T) {
	url := startHostile(t, func(w http.ResponseWriter, _ *http.Request, status int, h http.Header, body []byte) bool {
		if status == http.StatusTooManyRequests {
			h.Set("Content-Type", "text/html")
			body = []byte("<html><body><h1>Too Many Requests</h1></body></html>")
		}
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return true
	})
	rs := runHostile(t, url, "@id:AC3-01")
	wantViolation(t, rs, "AC3-01", clause.AC3, "<html>")
}

// TARGET_HEADERS and BODY_TEMPLATE reach the target: a service with auth
// and body validation passes with them; without them its first answer is
// a 401, which is exit 2 naming TARGET_HEADERS.
func TestHeadersAndBodyTemplateReachTheTarget(t *testing.T) {
	url := startHostile(t, func(w http.ResponseWriter, r *http.Request, status int, h http.Header, body []byte) bool {
		if r.Header.Get("Authorization") != "Bearer abc" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"unauthorized"}`))
			return true
		}
		return false
	})
	tmpl := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(tmpl, []byte(`{"tenant":"t1","at":"{{now}}","nonce":"{{uuid}}"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, withAuth := range []bool{true, false} {
		tc := service.DefaultConfig()
		set := DefaultSettings()
		tc.URL, tc.Limit, set.Tags, tc.BodyTemplate = url, 3, "@id:AC1-01", tmpl
		if withAuth {
			tc.Headers = http.Header{"Authorization": {"Bearer abc"}}
		}
		rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set}, WithoutReports())
		var cnr *CouldNotRun
		if !withAuth {
			if !errors.As(err, &cnr) || !strings.Contains(cnr.Reason, "HTTP 401") || !strings.Contains(cnr.Reason, "TARGET_HEADERS") {
				t.Fatalf("without auth: %v, want could not run naming TARGET_HEADERS", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if rep.ExitCode() != 0 {
			t.Fatalf("auth=%v: exit %d: %+v", withAuth, rep.ExitCode(), rep.Results)
		}
		for _, ex := range rep.Results[0].Exchanges {
			if !strings.Contains(string(ex.Body), `"tenant":"t1"`) {
				t.Fatalf("body not from BODY_TEMPLATE: %s", ex.Body)
			}
		}
	}
}

// A target whose every POST after the first gets 500 (the first, the
// settings check's, is allowed: a target that allows nothing is exit 2):
// the failures are charged to one root cause, the first request of a
// fresh bucket, pointing at AC1-01; the other scenarios fail as
// preconditions, none charged to AC1.
func TestServerErrorsGroupUnderOneRootCause(t *testing.T) {
	var posts atomic.Int32
	url := startHostile(t, func(w http.ResponseWriter, r *http.Request, _ int, _ http.Header, _ []byte) bool {
		if r.Method == http.MethodPost && posts.Add(1) == 1 {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":"internal"}`))
		return true
	})
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.URL, tc.Limit = url, 3
	var out strings.Builder
	rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set}, WithoutReports(), WithOutput(&out))
	if err != nil {
		t.Fatal(err)
	}
	const cause = "the first request of a fresh bucket got HTTP 500"
	n := 0
	for _, r := range rep.Results {
		if r.Status != steps.Failed || r.Cause != cause {
			continue
		}
		n++
		isAC1 := slices.Contains(r.Clauses, clause.AC1)
		if pre := strings.HasPrefix(r.Reason, "precondition: "); pre == isAC1 {
			t.Errorf("%s (AC1 %v): reason %q", r.ID, isAC1, r.Reason)
		}
	}
	want := fmt.Sprintf("%d scenarios: %s — see AC1-01", n, cause)
	if n < 20 || !strings.Contains(out.String(), want) {
		t.Fatalf("%d scenarios with the cause; output lacks %q:\n%s", n, want, out.String())
	}
}
