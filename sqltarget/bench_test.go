package sqltarget

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// BenchmarkCheckRateLimit measures spec/004's own function, as shipped, the
// way its edge function calls it: one transaction per check with the caller
// set in request.jwt.claims. 1, 10 and 50 callers run in parallel over
// 1,000 users, durable (synchronous_commit=on, the default) and, for 50
// callers, without waiting for the WAL flush; checks/s is the figure
// spec/004 claims 50,000+ of (ratio_of_claim reports measured / 50,000).
//
//	go test -run '^$' -bench CheckRateLimit -benchtime 20000x ./sqltarget
func BenchmarkCheckRateLimit(b *testing.B) {
	for _, c := range []struct {
		callers int
		durable bool
	}{{1, true}, {10, true}, {50, true}, {50, false}} {
		callers := c.callers
		b.Run(fmt.Sprintf("callers=%d/durable=%t", callers, c.durable), func(b *testing.B) {
			dsn := database(b, spec004.Shipped)
			if !c.durable {
				// The engine without waiting for the WAL flush: what a claim
				// that ignores the disk measures.
				dsn += "&synchronous_commit=off"
			}
			tr, err := New(context.Background(), Config{DSN: dsn, Function: "check_rate_limit", Limit: 1 << 30, Window: time.Minute}, WithMaxConns(callers))
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			var next atomic.Int64
			b.ResetTimer()
			start := time.Now()
			runParallel(b, callers, func() {
				req, _ := http.NewRequest(http.MethodGet, "http://sql.invalid/", nil)
				req.Header.Set("X-User-ID", fmt.Sprintf("user-%d", next.Add(1)%1000))
				resp, err := tr.RoundTrip(req)
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Errorf("check: %v %v", resp, err)
				}
			})
			rate := float64(b.N) / time.Since(start).Seconds()
			b.ReportMetric(rate, "checks/s")
			b.ReportMetric(rate/50000, "ratio_of_claim")
		})
	}
}

// runParallel runs fn b.N times on exactly callers goroutines.
func runParallel(b *testing.B, callers int, fn func()) {
	var left atomic.Int64
	left.Store(int64(b.N))
	done := make(chan struct{})
	for range callers {
		go func() {
			defer func() { done <- struct{}{} }()
			for left.Add(-1) >= 0 {
				fn()
			}
		}()
	}
	for range callers {
		<-done
	}
}
