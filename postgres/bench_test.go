package postgres

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// BenchmarkDecide measures durable check-and-spend decisions of the
// reference on this store (synchronous_commit=on): 1 and 10 concurrent
// callers, each on its own bucket, decisions/s and p95, on the optimistic
// one-statement path and on the locked path alone. BenchmarkPgbench
// beside it runs the engine's own ceiling on the same cluster, so the two
// read as a ratio in one run:
//
//	go test -run '^$' -bench 'Decide|Pgbench' -benchtime 5000x ./postgres
func BenchmarkDecide(b *testing.B) {
	for _, path := range []struct {
		name  string
		cache int
	}{{"optimistic", 1 << 16}, {"locked", 0}} {
		b.Run("path="+path.name, func(b *testing.B) { benchmarkDecide(b, WithStateCache(path.cache)) })
	}
}

func benchmarkDecide(b *testing.B, opt Option) {
	for _, callers := range []int{1, 10} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			ref, err := reference.New(model.PRD{Limit: 1 << 30, Window: time.Hour}, open(b, WithMaxConns(callers), opt))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			lat := make([][]time.Duration, callers)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for c := range callers {
				n := b.N/callers + boolInt(c < b.N%callers)
				wg.Add(1)
				go func() {
					defer wg.Done()
					req := reference.Request{Bucket: fmt.Sprintf("bench-%02d", c), BodyBytes: 2}
					for range n {
						t := time.Now()
						d, err := ref.Decide(ctx, req)
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
			b.StopTimer()
			reportLatency(b, lat, elapsed)
		})
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

func reportLatency(b *testing.B, lat [][]time.Duration, elapsed time.Duration) {
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)*95/100])/float64(time.Microsecond), "p95-µs")
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "decisions/s")
}

// pgbenchScript is the single-row statement a check-and-spend comes down
// to: one upsert that spends a unit of one bucket, in its own transaction.
const pgbenchScript = `\set b random(1, 10)
INSERT INTO rate_limit_buckets (bucket_id, quota_remaining, reset_utc) VALUES ('pgbench-' || :b, 1000000000, 4000000000)
  ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = rate_limit_buckets.quota_remaining - 1
  RETURNING quota_remaining, reset_utc;
`

// BenchmarkPgbench runs pgbench with the statement above on the same
// cluster, 1 and 10 clients, b.N transactions in all, and reports its tps
// and p95 latency (from its per-transaction log) as decisions/s and p95-µs.
func BenchmarkPgbench(b *testing.B) {
	pgbench, err := exec.LookPath(filepath.Join(binDir(b), "pgbench"))
	if err != nil {
		if pgbench, err = exec.LookPath("pgbench"); err != nil {
			b.Skip("pgbench not installed (apt-get install postgresql-contrib or postgresql-client)")
		}
	}
	for _, clients := range []int{1, 10} {
		b.Run(fmt.Sprintf("callers=%d", clients), func(b *testing.B) {
			s := open(b) // creates the tables
			dsn := s.pool.Config().ConnString()
			dir := b.TempDir()
			script := filepath.Join(dir, "spend.sql")
			if err := os.WriteFile(script, []byte(pgbenchScript), 0o644); err != nil {
				b.Fatal(err)
			}
			per := max(1, b.N/clients)
			cmd := exec.Command(pgbench, "-n", "-M", "prepared", "-f", script, "-c", strconv.Itoa(clients), "-j", strconv.Itoa(clients),
				"-t", strconv.Itoa(per), "-l", "--log-prefix", filepath.Join(dir, "tx"), dsn)
			cmd.Dir = dir
			b.ResetTimer()
			out, err := cmd.CombinedOutput()
			b.StopTimer()
			if err != nil {
				b.Fatalf("pgbench: %v\n%s", err, out)
			}
			m := regexp.MustCompile(`tps = ([0-9.]+)`).FindSubmatch(out)
			if m == nil {
				b.Fatalf("no tps in pgbench output:\n%s", out)
			}
			tps, _ := strconv.ParseFloat(string(m[1]), 64)
			b.ReportMetric(tps, "decisions/s")
			if p95, ok := pgbenchP95(dir); ok {
				b.ReportMetric(p95, "p95-µs")
			}
		})
	}
}

// pgbenchP95 reads pgbench's per-transaction logs (third field: latency in
// µs).
func pgbenchP95(dir string) (float64, bool) {
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
	if len(lat) == 0 {
		return 0, false
	}
	sort.Float64s(lat)
	return lat[len(lat)*95/100], true
}

func binDir(tb testing.TB) string {
	tb.Helper()
	if env.cluster == nil {
		tb.Skip(env.reason)
	}
	return env.cluster.BinDir()
}
