package fakeserver

import (
	"database/sql"
	"flag"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var long = flag.Bool("long", false, "run the long variants (200 crash cycles)")

// crashCycles is the number of kill cycles (-long: 200).
func crashCycles() int {
	if *long {
		return 200
	}
	return 20
}

// crashClient is the load's HTTP client.
func crashClient(t *testing.T) *http.Client {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// crashRNG is a seeded generator, its seed logged for a replay.
func crashRNG(t *testing.T) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 1))
}

// killServerCycles SIGKILLs a server process started with env at random
// moments under concurrent load and restarts it, cycles times; check
// verifies the stored state after each kill.
func killServerCycles(t *testing.T, cycles int, l *crashLedger, check func(cycle int), env ...string) {
	rng := crashRNG(t)
	client := crashClient(t)
	for cycle := 0; cycle < cycles; cycle++ {
		cmd, url, token := startHelper(t, cycle, env...)
		l.token = token
		killAfter := int64(rng.IntN(80)) // acknowledged responses before the kill
		var killOnce sync.Once
		kill := func() { killOnce.Do(func() { _ = cmd.Process.Kill() }) }
		if killAfter == 0 {
			kill()
		}
		l.load(t, client, url, cycle, false, func(n int64) {
			if n >= killAfter {
				kill()
			}
		})
		kill()
		_ = cmd.Wait()
		client.CloseIdleConnections()
		check(cycle)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d cycles, %d acknowledged 200s", cycles, len(l.acks))
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
	path := filepath.Join(t.TempDir(), "crash.db")
	l := newCrashLedger()
	killServerCycles(t, crashCycles(), l, func(cycle int) { checkSQLiteCrashState(t, path, l, cycle) }, serverHelperEnv+"="+path)
}

// Crash safety of each profile other than the PRD (GET keyed by X-User-ID):
// as TestCrashSafety; acknowledgements are grouped by window (Reset).
func TestCrashSafetyProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns and kills processes")
	}
	for _, p := range []struct {
		profile Profile
		align   Align
	}{{profile.SlidingLog, ""}, {profile.FixedWindow, profile.AlignEpoch}, {profile.FixedWindow, profile.AlignFirstRequest}} {
		t.Run(string(p.profile)+"/"+string(p.align), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crash.db")
			l := newCrashLedger()
			l.profile = p.profile
			killServerCycles(t, crashCycles(), l, func(cycle int) { checkSQLiteCrashState(t, path, l, cycle) },
				serverHelperEnv+"="+path, serverHelperProfileEnv+"="+string(p.profile), serverHelperAlignEnv+"="+string(p.align))
		})
	}
}

func checkSQLiteCrashState(t *testing.T, path string, l *crashLedger, cycle int) {
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
	l.check(t, cycle, func(id string) (q int, reset int64, err error) {
		err = db.QueryRow(`SELECT quota_remaining, reset_utc FROM rate_limit_buckets WHERE bucket_id=?`, id).Scan(&q, &reset)
		return q, reset, err
	}, func() (n int, err error) {
		err = db.QueryRow(`SELECT count(*) FROM ride_ingest`).Scan(&n)
		return n, err
	})
}
