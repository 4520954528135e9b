package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// itemsAPI is a newcomer's own small API: GET /api/items, limit requests
// per window per X-User-ID (the client address without one), windows on
// the clock's grid, X-RateLimit-* with Reset in unix seconds, 429 with a
// JSON error. StartReset, the deliberate deviation, writes the window's
// start as its Reset instead of its end.
type itemsAPI struct {
	limit      int
	window     int64
	startReset bool
	mu         sync.Mutex
	counts     map[string]*[2]int64 // key → window start, allowed
}

func (a *itemsAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/items" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	key := r.Header.Get("X-User-ID")
	if key == "" {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		key = "ip:" + host
	}
	now := time.Now().Unix()
	start := now - now%a.window
	a.mu.Lock()
	c := a.counts[key]
	if c == nil || c[0] != start {
		c = &[2]int64{start, 0}
		a.counts[key] = c
	}
	ok := c[1] < int64(a.limit)
	if ok {
		c[1]++
	}
	n := c[1]
	a.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-RateLimit-Limit", strconv.Itoa(a.limit))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(max(int64(a.limit)-n, 0), 10))
	reset := start + a.window
	if a.startReset {
		reset = start
	}
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	if !ok {
		h.Set("Retry-After", strconv.FormatInt(max(start+a.window-now, 1), 10))
		w.WriteHeader(http.StatusTooManyRequests)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "too_many_requests", "message": "slow down"})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string][]string{"items": {}})
}

// newcomerDoc is the walk-through the test writes.
const newcomerDoc = "../../docs/newcomer.md"

// TestNewcomerWalkthrough is docs/newcomer.md: a newcomer's own API (5
// requests per 10 s per X-User-ID), `rlspec probe`, the command it
// printed run as printed (a pass), then the API with a deliberate
// deviation (Reset names the window's start) and the failure that shows
// it. RLSPEC_WRITE_DOCS=1 rewrites the document; otherwise the test fails
// when the committed copy's suggested command or verdicts differ from
// this run's (times, ports and ids aside).
func TestNewcomerWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("a probe and two acceptance runs (about a minute and a half)")
	}
	t.Parallel()
	api := &itemsAPI{limit: 5, window: 10, counts: map[string]*[2]int64{}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	url := srv.URL + "/api/items"
	var doc strings.Builder
	doc.WriteString(`# A newcomer's first run against their own API

This page is written by a test (` + "`TestNewcomerWalkthrough`" + ` in
[cmd/rlspec/newcomer_test.go](../cmd/rlspec/newcomer_test.go); ` + "`RLSPEC_WRITE_DOCS=1 go test -run TestNewcomerWalkthrough ./cmd/rlspec`" + `
rewrites it, and the test fails when the suggested command or a verdict
below differs from a fresh run), so it shows what rlspec prints today.

The API is the newcomer's own, not the PRD: ` + "`GET /api/items`" + `, 5
requests per 10 s per ` + "`X-User-ID`" + ` (the client address without one), windows
on the clock's 10 s grid, ` + "`X-RateLimit-*`" + ` headers with ` + "`Reset`" + ` in unix
seconds, and a 429 with a JSON error. It listens on 127.0.0.1:8080 (the port
below is the test's, replaced).
`)
	step := func(title, cmdline, out string) {
		fmt.Fprintf(&doc, "\n## %s\n\n```console\n$ %s\n%s\n```\n", title, cmdline, strings.TrimRight(out, "\n"))
	}
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1:")
	clean := func(s string) string {
		s = strings.ReplaceAll(s, "127.0.0.1:"+port, "127.0.0.1:8080")
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "[") && !strings.HasPrefix(l, "reports: ") { // progress lines, temporary paths
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}

	code, probeOut, stderr := runProbeCLI(t, map[string]string{"TARGET_URL": url})
	if code != 0 {
		t.Fatalf("probe: exit %d\n%s\n%s", code, probeOut, stderr)
	}
	step("1. Ask the probe", "TARGET_URL=http://127.0.0.1:8080/api/items rlspec probe", clean(probeOut))
	env := suggestedEnv(t, probeOut)
	lines := strings.Split(strings.TrimSpace(probeOut), "\n")
	printed := strings.TrimSpace(lines[len(lines)-1])

	env["REPORT_DIR"] = t.TempDir()
	code, out, errOut := runIn(t, 2*time.Minute, "", env, "acceptance")
	if code != 0 {
		t.Fatalf("acceptance with the probe's settings: exit %d\n%s\n%s\n%s", code, probeOut, out, errOut)
	}
	step("2. Run the command it printed", clean(printed), clean(out)+fmt.Sprintf("\n(exit status %d)", code))

	api.mu.Lock()
	api.startReset, api.counts = true, map[string]*[2]int64{}
	api.mu.Unlock()
	env["REPORT_DIR"] = t.TempDir()
	code, out, errOut = runIn(t, 2*time.Minute, "", env, "acceptance")
	if code != 1 || !strings.Contains(out, "FAIL FW-5-01") {
		t.Fatalf("acceptance against the deviating API: exit %d, want 1 with FW-5-01 failed\n%s\n%s", code, out, errOut)
	}
	step("3. A deliberate deviation: Reset names the window's start, not its end", clean(printed), clean(out)+fmt.Sprintf("\n(exit status %d)", code))

	checkOrWrite(t, doc.String())
}

// checkOrWrite writes the document under RLSPEC_WRITE_DOCS=1, and
// otherwise compares the committed one's signature with got's.
func checkOrWrite(t *testing.T, got string) {
	t.Helper()
	if os.Getenv("RLSPEC_WRITE_DOCS") == "1" {
		if err := os.WriteFile(newcomerDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(newcomerDoc)
	if err != nil {
		t.Fatalf("%v: write it with RLSPEC_WRITE_DOCS=1 go test -run TestNewcomerWalkthrough ./cmd/rlspec", err)
	}
	if w, g := signature(string(b)), signature(got); w != g {
		t.Errorf("%s is stale: rewrite it with RLSPEC_WRITE_DOCS=1 go test -run TestNewcomerWalkthrough ./cmd/rlspec\ncommitted:\n%s\nthis run:\n%s", filepath.Base(newcomerDoc), w, g)
	}
}

// varying are what differs between runs of the walk-through: ports,
// durations, unix times.
var varying = regexp.MustCompile(`127\.0\.0\.1:[0-9]+|[0-9]+(\.[0-9]+)?(ms|µs|s)\b|\b[0-9]{9,}\b`)

// signature is what must not drift in the walk-through: the commands and
// the verdict lines, with ports, durations and unix times masked.
func signature(doc string) string {
	var sig []string
	for _, l := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "TARGET_URL=") || strings.HasPrefix(t, "FAIL ") ||
			strings.HasSuffix(t, " PASS") || strings.HasSuffix(t, " FAIL") || strings.Contains(t, " passed, ") {
			sig = append(sig, varying.ReplaceAllString(t, "_"))
		}
	}
	return strings.Join(sig, "\n")
}

// TestNewcomerSignatureSeesDrift: a changed verdict, command or setting
// changes the signature; times and ports do not.
func TestNewcomerSignatureSeesDrift(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(newcomerDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if signature(strings.ReplaceAll(doc, "8080", "9191")) != signature(doc) {
		t.Error("a port changes the signature")
	}
	for _, drift := range [][2]string{{"headers                                        FAIL", "headers                                        PASS"},
		{"WINDOW_ALIGN=epoch DIALECT", "WINDOW_ALIGN=first-request DIALECT"}, {"FAIL FW-5-01", "FAIL FW-6-01"}} {
		if !strings.Contains(doc, drift[0]) {
			t.Fatalf("the document lacks %q", drift[0])
		}
		if signature(strings.ReplaceAll(doc, drift[0], drift[1])) == signature(doc) {
			t.Errorf("%q → %q leaves the signature alone", drift[0], drift[1])
		}
	}
}
