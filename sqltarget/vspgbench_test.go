package sqltarget

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/pgcluster/pgtest"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// BenchmarkVsPgbench pairs rlspec's calls of spec/004's function (a window
// of a day: every call counted, none refused) with pgbench making the very
// same calls: each call BEGIN, the caller's claims,
// the function, COMMIT, pipelined in one round trip and prepared, each
// caller as a user of its own. Round by round on one database, b.N calls
// each per round for 9 rounds, it reports the median of the rounds' ratios
// (×pgbench) with their min and max beside each side's median rate; on a
// shared machine a ratio taken within a round holds where separate runs
// drift apart. path=pool is the acceptance suite's and the race hunter's
// (RoundTrip on the pool), path=conn the load generator's (a connection per
// caller).
//
//	go test -run '^$' -bench VsPgbench -benchtime 1000x ./sqltarget
func BenchmarkVsPgbench(b *testing.B) {
	const rounds = 9
	for _, path := range []string{"pool", "conn"} {
		for _, callers := range []int{1, 10} {
			b.Run(fmt.Sprintf("path=%s/callers=%d", path, callers), func(b *testing.B) {
				dsn := database(b, spec004.Shipped)
				tr, err := New(context.Background(), Config{DSN: dsn, Function: "check_rate_limit", Limit: 1 << 30, Window: 24 * time.Hour}, WithMaxConns(callers))
				if err != nil {
					b.Fatal(err)
				}
				defer tr.Close()
				call := callerFuncs(b, tr, path, callers)
				var ratios, ours, theirs []float64
				for range rounds {
					r := callRate(b, call, b.N)
					p := pgbenchCalls(b, tr, dsn, callers, b.N)
					ratios, ours, theirs = append(ratios, r/p), append(ours, r), append(theirs, p)
				}
				slices.Sort(ratios)
				b.ReportMetric(ratios[rounds/2], "×pgbench")
				b.ReportMetric(ratios[0], "min-×pgbench")
				b.ReportMetric(ratios[rounds-1], "max-×pgbench")
				b.ReportMetric(median(ours), "checks/s")
				b.ReportMetric(median(theirs), "pgbench-tps")
			})
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchUser is caller c's user, the one pgbench's client c calls as.
func benchUser(c int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", c) }

// callerFuncs are one allowed call per caller on path.
func callerFuncs(b *testing.B, tr *Transport, path string, callers int) []func() {
	fs := make([]func(), callers)
	for c := range fs {
		user := benchUser(c)
		if path == "conn" {
			conn, err := tr.Dial(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = conn.Close() })
			fs[c] = func() {
				if code, err := conn.Check(context.Background(), user); err != nil || code != http.StatusOK {
					b.Errorf("check: %d %v", code, err)
				}
			}
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, "http://sql.invalid/", nil)
		req.Header.Set("X-User-ID", user)
		fs[c] = func() {
			resp, err := tr.RoundTrip(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Errorf("check: %v %v", resp, err)
			}
		}
	}
	return fs
}

// callRate makes about n calls, n/len(call) on each caller's goroutine;
// calls per second.
func callRate(b *testing.B, call []func(), n int) float64 {
	per := max(1, n/len(call))
	var wg sync.WaitGroup
	start := time.Now()
	for _, f := range call {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				f()
			}
		}()
	}
	wg.Wait()
	return float64(per*len(call)) / time.Since(start).Seconds()
}

// pgbenchScript is checkOn's round trip in pgbench: the claims of client
// c's user are made once per client, outside the measured calls' shape.
const pgbenchScript = `\if :made = 0
SELECT '{"sub":"00000000-0000-4000-8000-' || lpad(:client_id::text, 12, '0') || '"}' AS claims \gset
\set made 1
\endif
\startpipeline
BEGIN;
SELECT set_config('request.jwt.claims', :claims, true);
%s;
COMMIT;
\endpipeline
`

// pgbenchCalls runs about n of the transport's calls from clients pgbench
// clients (a thread each); calls per second.
func pgbenchCalls(b *testing.B, tr *Transport, dsn string, clients, n int) float64 {
	calls := func() (n int) {
		if err := tr.pool.QueryRow(context.Background(), `SELECT coalesce(sum(call_count), 0) FROM rpc_rate_limits`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	before, per := calls(), max(1, n/clients)
	call := strings.NewReplacer("$1", ":rpc", "$2", ":limit", "$3", ":window").Replace(tr.call)
	tps := pgtest.Pgbench(b, filepath.Join(pg.Cluster(b).BinDir(), "pgbench"), b.TempDir(), fmt.Sprintf(pgbenchScript, call), clients, per,
		"-D", "made=0", "-D", "rpc="+tr.rpc, "-D", "limit="+strconv.Itoa(tr.limit), "-D", fmt.Sprintf("window=%v", tr.window), dsn)
	if got, want := calls()-before, clients*per; got != want {
		b.Fatalf("pgbench counted %d calls of its %d", got, want)
	}
	return tps
}
