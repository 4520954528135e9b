package fakeserver

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
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
)

// TestHelperServer is the server process the crash tests kill: it serves
// the SQLite file or PostgreSQL database named by the environment and
// prints its URL.
func TestHelperServer(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Limit = crashLimit
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

// startHelper starts TestHelperServer with env and returns it and its URL.
func startHelper(t *testing.T, cycle int, env string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(os.Environ(), env)
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
	return cmd, strings.TrimSpace(url)
}

type ack struct {
	bucket    int
	remaining int
}

// crashLedger is what a crash test's servers acknowledged, over all
// cycles. Each cycle spends fresh buckets (so that no cycle finds its
// quota gone), and every earlier bucket is checked again after each crash.
type crashLedger struct {
	buckets []string
	mu      sync.Mutex
	acks    []ack
}

func newCrashLedger() *crashLedger { return &crashLedger{} }

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
				resp, err := client.Post(url+PathRideSummary, "application/json", strings.NewReader(rideBody(l.buckets[b])))
				if err != nil {
					return // killed
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == 200:
					rem, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
					if err != nil {
						t.Errorf("bad Remaining %q", resp.Header.Get("X-RateLimit-Remaining"))
						return
					}
					l.mu.Lock()
					l.acks = append(l.acks, ack{b, rem})
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

// check compares the stored state with the ledger: no Remaining value
// acknowledged twice for a bucket (oversold), at most the limit of 200s,
// no bucket whose stored quota is above its lowest acknowledged Remaining
// (spent quota regained) and at least one stored ride per acknowledged 200.
// stored reads a bucket's quota_remaining; rides counts the ingest rows.
func (l *crashLedger) check(t *testing.T, cycle int, stored func(bucketID string) (int, error), rides func() (int, error)) {
	t.Helper()
	minRem := make([]int, len(l.buckets))
	seen := make([]map[int]bool, len(l.buckets))
	for i := range minRem {
		minRem[i] = crashLimit
		seen[i] = map[int]bool{}
	}
	for _, a := range l.acks {
		if seen[a.bucket][a.remaining] {
			t.Fatalf("cycle %d: bucket %d: Remaining %d acknowledged twice (oversold)", cycle, a.bucket, a.remaining)
		}
		seen[a.bucket][a.remaining] = true
		minRem[a.bucket] = min(minRem[a.bucket], a.remaining)
	}
	for i, b := range l.buckets {
		if len(seen[i]) > crashLimit {
			t.Fatalf("cycle %d: bucket %d: %d acknowledged 200s, limit %d", cycle, i, len(seen[i]), crashLimit)
		}
		if len(seen[i]) == 0 {
			continue
		}
		q, err := stored(b)
		if err != nil {
			t.Fatalf("cycle %d: bucket %d lost after acknowledged spends: %v", cycle, i, err)
		}
		if q > minRem[i] || q < 0 {
			t.Fatalf("cycle %d: bucket %d: stored quota %d, but Remaining %d was acknowledged", cycle, i, q, minRem[i])
		}
	}
	n, err := rides()
	if err != nil || n < len(l.acks) {
		t.Fatalf("cycle %d: %d rides stored, %d acknowledged (%v)", cycle, n, len(l.acks), err)
	}
}
