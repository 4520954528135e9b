package reference_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rlspec/rlspec/reference"
)

// BenchmarkDecide measures durable (synchronous=FULL) check-and-spend
// decisions: throughput with 1 and 10 concurrent callers and p95 latency.
// spec/000 quotes 5,000/s single-threaded, 15,000/s at 10 threads, p95 < 1 ms.
//
//	go test -run '^$' -bench Decide -benchtime 20000x ./reference
func BenchmarkDecide(b *testing.B) {
	for _, callers := range []int{1, 10} {
		b.Run(map[int]string{1: "callers=1", 10: "callers=10"}[callers], func(b *testing.B) {
			s, _ := openTest(b, withLimit(1<<30))
			ctx := context.Background()
			lat := make([][]time.Duration, callers)
			var wg sync.WaitGroup
			per := b.N / callers
			extra := b.N % callers
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime(b)
			for c := 0; c < callers; c++ {
				n := per
				if c < extra {
					n++
				}
				lat[c] = make([]time.Duration, 0, n)
				wg.Add(1)
				go func(c, n int) {
					defer wg.Done()
					r := req(bucket(c))
					for i := 0; i < n; i++ {
						t := time.Now()
						d, err := s.Decide(ctx, r)
						lat[c] = append(lat[c], time.Since(t))
						if err != nil || d.Outcome != reference.Allowed {
							b.Errorf("decide: %v %v", d.Outcome, err)
							return
						}
					}
				}(c, n)
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			var all []time.Duration
			for _, l := range lat {
				all = append(all, l...)
			}
			sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
			if len(all) > 0 {
				b.ReportMetric(float64(all[len(all)*95/100])/float64(time.Microsecond), "p95-µs")
				b.ReportMetric(float64(all[len(all)*99/100])/float64(time.Microsecond), "p99-µs")
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "decisions/s")
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/decision")
			if st := s.db.Stats(); st.Batches > 0 {
				b.ReportMetric(float64(st.Jobs)/float64(st.Batches), "decisions/commit")
			}
		})
	}
}

// BenchmarkFsyncFloor is the disk's own limit, run beside BenchmarkDecide so
// the two read as a ratio in one run: one caller cannot make more durable
// decisions per second than the disk completes fdatasyncs of one WAL frame
// written into an already allocated file in the same directory (SQLite's
// WAL is rewritten in place after each checkpoint, so its commits need no
// metadata update either).
//
//	go test -run '^$' -bench '^Benchmark(Decide|FsyncFloor)$' -benchtime 20000x ./reference
func BenchmarkFsyncFloor(b *testing.B) {
	f := newFloor(b)
	b.ResetTimer()
	cpu0 := cpuTime(b)
	b.ReportMetric(f.rate(b, b.N), "syncs/s")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/sync")
}

// BenchmarkVsFsyncFloor alternates one durable caller and the fsync floor,
// b.N each per round for 9 rounds, and reports the median of the rounds'
// ratios (×floor) with their min and max: on a shared machine and a shared
// disk a ratio taken within a round holds where separate runs drift apart.
//
//	go test -run '^$' -bench VsFsyncFloor -benchtime 1000x ./reference
func BenchmarkVsFsyncFloor(b *testing.B) {
	const rounds = 9
	s, _ := openTest(b, withLimit(1<<30))
	f := newFloor(b)
	ctx, r := context.Background(), req(bucket(0))
	var ratios, ours, floors []float64
	for range rounds {
		start := time.Now()
		for range b.N {
			if d, err := s.Decide(ctx, r); err != nil || d.Outcome != reference.Allowed {
				b.Fatalf("decide: %v %v", d.Outcome, err)
			}
		}
		dec := float64(b.N) / time.Since(start).Seconds()
		fl := f.rate(b, b.N)
		ratios, ours, floors = append(ratios, dec/fl), append(ours, dec), append(floors, fl)
	}
	sort.Float64s(ratios)
	sort.Float64s(ours)
	sort.Float64s(floors)
	b.ReportMetric(ratios[rounds/2], "×floor")
	b.ReportMetric(ratios[0], "min-×floor")
	b.ReportMetric(ratios[rounds-1], "max-×floor")
	b.ReportMetric(ours[rounds/2], "decisions/s")
	b.ReportMetric(floors[rounds/2], "syncs/s")
}

// floor is a 4 MiB file of WAL frames, allocated and synced, rewritten in
// a ring.
type floor struct {
	f    *os.File
	page []byte
	next int
}

const floorFrame, floorRing = 4096 + 24, 1024 // one WAL frame; a 4 MiB file

func newFloor(b *testing.B) *floor {
	f, err := os.Create(filepath.Join(b.TempDir(), "floor.wal"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	fl := &floor{f: f, page: make([]byte, floorFrame)}
	for range floorRing {
		if _, err := f.Write(fl.page); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return fl
}

// rate writes and fdatasyncs n frames; syncs per second.
func (fl *floor) rate(b *testing.B, n int) float64 {
	start := time.Now()
	for range n {
		if _, err := fl.f.WriteAt(fl.page, int64(fl.next%floorRing)*floorFrame); err != nil {
			b.Fatal(err)
		}
		fl.next++
		if err := syscall.Fdatasync(int(fl.f.Fd())); err != nil {
			b.Fatal(err)
		}
	}
	return float64(n) / time.Since(start).Seconds()
}

// cpuTime is the process's user and system CPU time so far: with
// decisions/s it separates the decision's own cost from the disk's.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
