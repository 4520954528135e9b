package fakeserver

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The crash tests' shared parts: a server process to kill, the concurrent
// load, the ledger of acknowledged decisions and the checks every store's
// state must pass against it after a crash.

const (
	crashLimit   = 100
	crashBuckets = 4
	// Environment of TestHelperServer: the SQLite file, or a DATABASE_URL.
	serverHelperEnv   = "RLSPEC_FAKESERVER_HELPER_DB"
	serverHelperPGEnv = "RLSPEC_FAKESERVER_HELPER_PG"
	// The profile the helper serves ("" the PRD), and fixed-window's
	// alignment.
	serverHelperProfileEnv = "RLSPEC_FAKESERVER_HELPER_PROFILE"
	serverHelperAlignEnv   = "RLSPEC_FAKESERVER_HELPER_ALIGN"
	// serverHelperTokenEnv is a value the helper sends back in the
	// helperHeader of every response: after a kill, another test's server
	// may take over the port, and its answers are not this helper's.
	serverHelperTokenEnv = "RLSPEC_FAKESERVER_HELPER_TOKEN"
	helperHeader         = "X-Crash-Helper"
)

// TestHelperServer is the server process the crash tests kill: it serves
// the SQLite file or PostgreSQL database named by the environment and
// prints its URL.
func TestHelperServer(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Limit = crashLimit
	if p := os.Getenv(serverHelperProfileEnv); p != "" {
		cfg.Profile, cfg.Align = Profile(p), Align(os.Getenv(serverHelperAlignEnv))
	}
	if token := os.Getenv(serverHelperTokenEnv); token != "" {
		cfg.Wrap.Handler = func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set(helperHeader, token)
				h.ServeHTTP(w, r)
			})
		}
	}
	switch db, pg := os.Getenv(serverHelperEnv), os.Getenv(serverHelperPGEnv); {
	case db != "":
		cfg.DBPath = db
	case pg != "":
		cfg.Store, cfg.DatabaseURL = StorePostgres, pg
	default:
		t.Skip("helper process only")
	}
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		os.Stderr.WriteString("helper: " + err.Error() + "\n")
		os.Exit(3)
	}
	os.Stdout.WriteString(r.URL + "\n")
	select {} // until SIGKILL
}

// startHelper starts TestHelperServer with env and returns it, its URL and
// the token it answers with.
func startHelper(t *testing.T, cycle int, env ...string) (*exec.Cmd, string, string) {
	t.Helper()
	token := fmt.Sprintf("%d-%d-%d", os.Getpid(), cycle, time.Now().UnixNano())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(append(os.Environ(), env...), serverHelperTokenEnv+"="+token)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("cycle %d: helper did not start: %v", cycle, err)
	}
	return cmd, strings.TrimSpace(url), token
}

type ack struct {
	bucket    int
	remaining int
	reset     int64 // the window (Reset) the Remaining is of
}

// crashLedger is what a crash test's servers acknowledged, over all
// cycles. Each cycle spends fresh buckets (so that no cycle finds its
// quota gone), and every earlier bucket is checked again after each crash.
type crashLedger struct {
	profile Profile // "" the PRD: POST rides; otherwise GET with X-User-ID
	token   string  // the helper's helperHeader ("" none: an in-process server)
	buckets []string
	mu      sync.Mutex
	acks    []ack
}

func newCrashLedger() *crashLedger { return &crashLedger{} }

// send is one request of bucket b: a ride, or a profile's GET keyed by b.
func (l *crashLedger) send(client *http.Client, url, b string) (*http.Response, error) {
	if l.profile == "" || l.profile == profile.PRD {
		return client.Post(url+PathRideSummary, "application/json", strings.NewReader(rideBody(b)))
	}
	req, err := http.NewRequest(http.MethodGet, url+PathRideSummary, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set(UserHeader, b)
	return client.Do(req)
}

// bucketID is the stored id of bucket b.
func (l *crashLedger) bucketID(b string) string {
	if l.profile == "" || l.profile == profile.PRD {
		return b
	}
	return UserPrefix + b
}

// load adds crashBuckets fresh buckets, sends 8 workers × 40 rides to url
// over them and records the 200s. After each answer it calls answered with the count so far (the
// caller's kill trigger). A transport error ends a worker (the server was
// killed); a 503 is accepted only with allow503 (the database is down).
func (l *crashLedger) load(t *testing.T, client *http.Client, url string, cycle int, allow503 bool, answered func(n int64)) {
	first := len(l.buckets)
	for i := range crashBuckets {
		l.buckets = append(l.buckets, devBucket(1000+first+i))
	}
	var count atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				b := first + (w+i)%crashBuckets
				resp, err := l.send(client, url, l.buckets[b])
				if err != nil {
					return // killed
				}
				if l.token != "" && resp.Header.Get(helperHeader) != l.token {
					resp.Body.Close()
					return // killed, and another server took the port over
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == 200:
					rem, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
					reset, rerr := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64)
					if err != nil || rerr != nil {
						t.Errorf("bad Remaining %q or Reset %q", resp.Header.Get("X-RateLimit-Remaining"), resp.Header.Get("X-RateLimit-Reset"))
						return
					}
					l.mu.Lock()
					l.acks = append(l.acks, ack{b, rem, reset})
					l.mu.Unlock()
				case resp.StatusCode == 429, resp.StatusCode == 503 && allow503:
				default:
					t.Errorf("cycle %d: status %d", cycle, resp.StatusCode)
				}
				answered(count.Add(1))
			}
		}(w)
	}
	wg.Wait()
}

// check compares the stored state with the ledger, per bucket and window
// (Reset): no Remaining value acknowledged twice (oversold), at most the
// limit of 200s, a stored window no older than the newest acknowledged one
// and, in it, stored quota no above its lowest acknowledged Remaining
// (spent quota regained; a sliding log's: its lowest of all), and at least one stored ride per acknowledged
// 200. stored reads a bucket's quota_remaining and reset_utc; rides counts
// the ingest rows.
func (l *crashLedger) check(t *testing.T, cycle int, stored func(bucketID string) (int, int64, error), rides func() (int, error)) {
	t.Helper()
	type window struct {
		bucket int
		reset  int64
	}
	minRem := map[window]int{}
	seen := map[window]map[int]bool{}
	newest := make([]int64, len(l.buckets))
	for _, a := range l.acks {
		w := window{a.bucket, a.reset}
		if seen[w] == nil {
			seen[w], minRem[w] = map[int]bool{}, crashLimit
		}
		if seen[w][a.remaining] {
			t.Fatalf("cycle %d: bucket %d: Remaining %d acknowledged twice in the window ending %d (oversold)", cycle, a.bucket, a.remaining, a.reset)
		}
		seen[w][a.remaining] = true
		minRem[w] = min(minRem[w], a.remaining)
		newest[a.bucket] = max(newest[a.bucket], a.reset)
	}
	for w, s := range seen {
		if len(s) > crashLimit {
			t.Fatalf("cycle %d: bucket %d: %d acknowledged 200s in the window ending %d, limit %d", cycle, w.bucket, len(s), w.reset, crashLimit)
		}
	}
	for i, b := range l.buckets {
		if newest[i] == 0 {
			continue
		}
		q, reset, err := stored(l.bucketID(b))
		if err != nil {
			t.Fatalf("cycle %d: bucket %d lost after acknowledged spends: %v", cycle, i, err)
		}
		if reset < newest[i] {
			t.Fatalf("cycle %d: bucket %d: stored window ends %d, but one ending %d was acknowledged", cycle, i, reset, newest[i])
		}
		m, ok := minRem[window{i, reset}]
		if !ok {
			m = crashLimit
		}
		if l.profile == profile.SlidingLog {
			// The stored Reset is when the newest entry leaves, the
			// acknowledged ones when the oldest does; within the test's
			// hour nothing leaves, so every acknowledgement counts.
			for w, r := range minRem {
				if w.bucket == i {
					m, ok = min(m, r), true
				}
			}
		}
		if ok && (q > m || q < 0) {
			t.Fatalf("cycle %d: bucket %d: stored quota %d, but Remaining %d was acknowledged", cycle, i, q, m)
		}
	}
	n, err := rides()
	if err != nil || n < len(l.acks) {
		t.Fatalf("cycle %d: %d rides stored, %d acknowledged (%v)", cycle, n, len(l.acks), err)
	}
}
