//go:build unix

package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
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

// benchServeEnv makes the test binary serve the trivial handler instead of
// running tests: BenchmarkClosedLoop's out-of-process target.
const benchServeEnv = "LOADGEN_BENCH_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(benchServeEnv) == "1" {
		if err := serveTrivialUntilEOF(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		return
	}
	m.Run()
}

// serveTrivialUntilEOF serves the trivial handler on a loopback port it
// prints, until its standard input ends.
func serveTrivialUntilEOF() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: trivial.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println(ln.Addr().String())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return srv.Close()
}

// childTarget starts the test binary as a trivial server (GOMAXPROCS=1) and
// returns its address; the child ends with the benchmark.
func childTarget(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchServeEnv+"=1", "GOMAXPROCS=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("child target: %v", err)
	}
	return strings.TrimSpace(line)
}

// BenchmarkClosedLoop runs loadgen's closed loop (HTTPDialer, 50
// connections) against the trivial handler for b.N requests, per target
// placement: "inprocess" (a net/http server in this process, sharing its
// scheduler) and "child" (the same server in a child process with
// GOMAXPROCS=1, as an external target is). It reports req/s and
// cpu-ns/req: the CPU of this process, so inprocess includes the handler's
// share and child does not.
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
	targets := []struct {
		name string
		addr func() string
	}{
		{"inprocess", func() string { return ln.Addr().String() }},
		{"child", func() string { return childTarget(b) }},
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			addr := tg.addr()
			req := []byte("POST /v1/ride_summary HTTP/1.1\r\nHost: " + addr +
				"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
			render := func() ([][]byte, error) { return [][]byte{req}, nil }
			d, err := NewHTTPDialer("http://"+addr, DefaultTimeout)
			if err != nil {
				b.Fatal(err)
			}
			a, err := NewAttacker(d, render, WithRate(0), WithConnections(50), WithRequests(uint64(b.N)),
				WithDuration(time.Hour), WithWarmup(0), WithBodyRefresh(0))
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
