package fakeserver

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var long = flag.Bool("long", false, "run the long variants (200 crash cycles)")

const serverHelperEnv = "RLSPEC_FAKESERVER_HELPER_DB"

// TestHelperServer is the server process the crash test kills: it serves
// the database named by the environment and prints its URL.
func TestHelperServer(t *testing.T) {
	db := os.Getenv(serverHelperEnv)
	if db == "" {
		t.Skip("helper process only")
	}
	cfg := DefaultConfig()
	cfg.DBPath = db
	cfg.Limit = crashLimit
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	fmt.Println(r.URL)
	select {} // until SIGKILL
}

const (
	crashLimit   = 100
	crashBuckets = 4
)

type ack struct {
	bucket    int
	remaining int
}

// Crash safety: SIGKILL the server at random moments under concurrent load,
// restart it on the same file, repeat. Every acknowledged 200 still counts
// afterwards (no bucket regains spent quota, every acknowledged ride is
// stored), nothing is oversold across crashes, and the file passes
// PRAGMA integrity_check.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns and kills processes")
	}
	cycles := 20
	if *long {
		cycles = 200
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	db := filepath.Join(t.TempDir(), "crash.db")
	buckets := make([]string, crashBuckets)
	for i := range buckets {
		buckets[i] = devBucket(1000 + i)
	}
	var acks []ack
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	for cycle := 0; cycle < cycles; cycle++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
		cmd.Env = append(os.Environ(), serverHelperEnv+"="+db)
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
		url = strings.TrimSpace(url)

		killAfter := int64(rng.IntN(80)) // acknowledged responses before the kill
		var acked atomic.Int64
		var killOnce sync.Once
		kill := func() { killOnce.Do(func() { _ = cmd.Process.Kill() }) }
		if killAfter == 0 {
			kill()
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 40; i++ {
					b := (w + i) % crashBuckets
					resp, err := client.Post(url+PathRideSummary, "application/json", strings.NewReader(rideBody(buckets[b])))
					if err != nil {
						return // killed
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					switch resp.StatusCode {
					case 200:
						rem, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
						if err != nil {
							t.Errorf("bad Remaining %q", resp.Header.Get("X-RateLimit-Remaining"))
							return
						}
						mu.Lock()
						acks = append(acks, ack{b, rem})
						mu.Unlock()
					case 429:
					default:
						t.Errorf("cycle %d: status %d", cycle, resp.StatusCode)
					}
					if acked.Add(1) >= killAfter {
						kill()
					}
				}
			}(w)
		}
		wg.Wait()
		kill()
		_ = cmd.Wait()
		client.CloseIdleConnections()
		checkCrashState(t, db, buckets, acks, cycle)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d cycles, %d acknowledged 200s", cycles, len(acks))
}

func checkCrashState(t *testing.T, path string, buckets []string, acks []ack, cycle int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("cycle %d: integrity_check %q %v", cycle, integrity, err)
	}
	minRem := make([]int, len(buckets))
	seen := make([]map[int]bool, len(buckets))
	for i := range minRem {
		minRem[i] = crashLimit
		seen[i] = map[int]bool{}
	}
	for _, a := range acks {
		if seen[a.bucket][a.remaining] {
			t.Fatalf("cycle %d: bucket %d: Remaining %d acknowledged twice (oversold)", cycle, a.bucket, a.remaining)
		}
		seen[a.bucket][a.remaining] = true
		minRem[a.bucket] = min(minRem[a.bucket], a.remaining)
	}
	for i, b := range buckets {
		if len(seen[i]) > crashLimit {
			t.Fatalf("cycle %d: bucket %d: %d acknowledged 200s, limit %d", cycle, i, len(seen[i]), crashLimit)
		}
		if len(seen[i]) == 0 {
			continue
		}
		var q int
		if err := db.QueryRow(`SELECT quota_remaining FROM rate_limit_buckets WHERE bucket_id=?`, b).Scan(&q); err != nil {
			t.Fatalf("cycle %d: bucket %d lost after acknowledged spends: %v", cycle, i, err)
		}
		if q > minRem[i] || q < 0 {
			t.Fatalf("cycle %d: bucket %d: stored quota %d, but Remaining %d was acknowledged", cycle, i, q, minRem[i])
		}
	}
	var rides int
	if err := db.QueryRow(`SELECT count(*) FROM ride_ingest`).Scan(&rides); err != nil || rides < len(acks) {
		t.Fatalf("cycle %d: %d rides stored, %d acknowledged (%v)", cycle, rides, len(acks), err)
	}
}
