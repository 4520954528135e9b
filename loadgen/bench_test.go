//go:build unix

package loadgen

import (
	"context"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/trivial"
)

// processCPU is the CPU time (user+system) this process has used so far.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClosedLoop runs loadgen's closed loop (HTTPDialer, 50
// connections) against an in-process trivial net/http handler for b.N
// requests, once per engine (sub-benchmarks goroutines and epoll), so their
// ratio shows in one run. It reports req/s and cpu-ns/req; the CPU is the
// whole process's, so it includes the handler's share (roughly half):
// compare runs of this benchmark with each other, not with an external tool.
//
//	go test -run '^$' -bench ClosedLoop -benchtime 200000x -count 3 -timeout 300s ./loadgen
func BenchmarkClosedLoop(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: trivial.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	req := []byte("POST /v1/ride_summary HTTP/1.1\r\nHost: " + ln.Addr().String() +
		"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
	render := func() ([][]byte, error) { return [][]byte{req}, nil }
	for _, engine := range engines() {
		b.Run(engine, func(b *testing.B) {
			d, err := NewHTTPDialer(base, DefaultTimeout)
			if err != nil {
				b.Fatal(err)
			}
			a, err := NewAttacker(d, render, WithRate(0), WithConnections(50), WithRequests(uint64(b.N)),
				WithDuration(time.Hour), WithWarmup(0), WithBodyRefresh(0), WithEngine(engine), WithEventLoops(1))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu0 := processCPU(b)
			b.ResetTimer()
			t0 := time.Now()
			res, err := a.Attack(context.Background())
			elapsed := time.Since(t0)
			b.StopTimer()
			cpu := processCPU(b) - cpu0
			if err != nil {
				b.Fatal(err)
			}
			s := StatusCountsOf(res.Totals.Status)
			if got := res.Totals.Requests(); got != int64(b.N) || s.OK != got {
				b.Fatalf("recorded %d requests (%+v), want %d all 200", got, s, b.N)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/req")
		})
	}
}
