package dialect

import (
	"net/http"
	"testing"
	"time"
)

// BenchmarkRead reads one x-ratelimit answer (a refusal with Retry-After)
// as the race hunter reads each response of a history: what a reading
// costs in time and allocations.
func BenchmarkRead(b *testing.B) {
	now := time.Unix(1_800_000_000, 0)
	h := http.Header{}
	if err := (Settings{Dialect: XRateLimit}).Write(h, Quota{Limit: 8, Remaining: 0, Reset: now.Add(10 * time.Second), Window: 10 * time.Second, Now: now}); err != nil {
		b.Fatal(err)
	}
	h.Set(HeaderRetryAfter, "10")
	r := Response{Status: http.StatusTooManyRequests, Header: h, Body: []byte(`{"error":"rate_limited"}`), Received: now}
	for _, s := range []struct {
		name string
		s    Settings
	}{{"settled", Settings{Dialect: XRateLimit, ResetFormat: ResetUnix}}, {"auto", Settings{}}} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if o := s.s.Read(r); o.Err != nil || o.Remaining != 0 {
					b.Fatalf("read %+v", o)
				}
			}
		})
	}
}
