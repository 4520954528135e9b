package postgres

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/pgcluster/pgtest"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// rate is one measured run: decisions (or pgbench transactions) per second
// and the p95 latency in µs.
type rate struct{ perSec, p95 float64 }

func (r rate) report(b *testing.B) {
	b.ReportMetric(r.perSec, "decisions/s")
	b.ReportMetric(r.p95, "p95-µs")
}

// BenchmarkDecide measures durable check-and-spend decisions of the
// reference on this store (synchronous_commit=on): 1 and 10 concurrent
// callers, each on its own bucket, decisions/s and p95, on the optimistic
// one-statement path and on the locked path alone. BenchmarkPgbench
// beside it runs the engine's own ceiling on the same cluster
// (BenchmarkVsPgbench pairs every design with pgbench replaying its very
// statements, round by round):
//
//	go test -run '^$' -bench '^Benchmark(Decide|Pgbench)$' -benchtime 5000x ./postgres
func BenchmarkDecide(b *testing.B) {
	for _, path := range []struct {
		name  string
		cache int
	}{{"optimistic", 1 << 16}, {"locked", 0}} {
		for _, callers := range []int{1, 10} {
			b.Run(fmt.Sprintf("path=%s/callers=%d", path.name, callers), func(b *testing.B) {
				ref := newBenchReference(b, callers, WithStateCache(path.cache))
				b.ResetTimer()
				r := decideRate(b, slices.Repeat([]*reference.Reference{ref}, callers), b.N)
				b.StopTimer()
				r.report(b)
			})
		}
	}
}

// BenchmarkPgbench runs pgbench with pgbenchScript on the same cluster, 1
// and 10 clients, b.N transactions in all, and reports its tps and p95
// latency (from its per-transaction log) as decisions/s and p95-µs.
func BenchmarkPgbench(b *testing.B) {
	pgbench := pgbenchPath(b)
	for _, clients := range []int{1, 10} {
		b.Run(fmt.Sprintf("callers=%d", clients), func(b *testing.B) {
			dsn := open(b).pool.Config().ConnString() // creates the tables
			b.ResetTimer()
			r := pgbenchRate(b, pgbench, dsn, clients, b.N)
			b.StopTimer()
			r.report(b)
		})
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// newBenchReference is the PRD reference on a fresh database.
func newBenchReference(b *testing.B, callers int, opts ...Option) *reference.Reference {
	b.Helper()
	s := open(b, append([]Option{WithMaxConns(callers)}, opts...)...)
	ref, err := reference.New(model.PRD{Limit: 1 << 30, Window: time.Hour}, s)
	if err != nil {
		b.Fatal(err)
	}
	return ref
}

// decideRate makes n decisions from a goroutine per reference, each on its
// own bucket (benchBucket).
func decideRate(b *testing.B, refs []*reference.Reference, n int) rate {
	callers := len(refs)
	ctx := context.Background()
	lat := make([][]time.Duration, callers)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range callers {
		k := n/callers + boolInt(c < n%callers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := reference.Request{Bucket: benchBucket(c), BodyBytes: 2}
			for range k {
				t := time.Now()
				d, err := refs[c].Decide(ctx, req)
				lat[c] = append(lat[c], time.Since(t))
				if err != nil || d.Outcome != reference.Allowed {
					b.Errorf("decide: %v %v", d.Outcome, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []float64
	for _, l := range lat {
		for _, d := range l {
			all = append(all, float64(d)/float64(time.Microsecond))
		}
	}
	return rate{perSec: float64(len(all)) / elapsed.Seconds(), p95: p95(all)}
}

// benchBucket is caller c's bucket: 10, 11, …, two digits as the replay's
// 20, 21, … (vspgbench_test.go).
func benchBucket(c int) string { return strconv.Itoa(10 + c) }

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

func p95(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)*95/100]
}

// pgbenchScript is the single-row statement a check-and-spend comes down
// to: one upsert that spends a unit of one bucket, in its own transaction.
const pgbenchScript = `\set b random(1, 10)
INSERT INTO rate_limit_buckets (bucket_id, quota_remaining, reset_utc) VALUES ('pgbench-' || :b, 1000000000, 4000000000)
  ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = rate_limit_buckets.quota_remaining - 1
  RETURNING quota_remaining, reset_utc;
`

func pgbenchPath(b *testing.B) string {
	b.Helper()
	if p, err := exec.LookPath(filepath.Join(binDir(b), "pgbench")); err == nil {
		return p
	}
	p, err := exec.LookPath("pgbench")
	if err != nil {
		b.Skip("pgbench not installed (apt-get install postgresql-contrib or postgresql-client)")
	}
	return p
}

// pgbenchRate runs n transactions of pgbenchScript from clients clients.
func pgbenchRate(b *testing.B, pgbench, dsn string, clients, n int) rate {
	b.Helper()
	dir := b.TempDir()
	tps := pgtest.Pgbench(b, pgbench, dir, pgbenchScript, clients, max(1, n/clients), "-l", "--log-prefix", filepath.Join(dir, "tx"), dsn)
	return rate{perSec: tps, p95: pgbenchP95(dir)}
}

// pgbenchP95 reads pgbench's per-transaction logs (third field: latency in
// µs).
func pgbenchP95(dir string) float64 {
	files, _ := filepath.Glob(filepath.Join(dir, "tx*"))
	var lat []float64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			fs := bytes.Fields(sc.Bytes())
			if len(fs) >= 3 {
				if v, err := strconv.ParseFloat(string(fs[2]), 64); err == nil {
					lat = append(lat, v)
				}
			}
		}
	}
	return p95(lat)
}

func binDir(tb testing.TB) string {
	tb.Helper()
	return pg.Cluster(tb).BinDir()
}
