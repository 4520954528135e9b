package reference

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func openTest(tb testing.TB, opts ...Option) (*Store, *FakeClock) {
	tb.Helper()
	clk := NewFakeClock(t0)
	path := filepath.Join(tb.TempDir(), "rl.db")
	s, err := Open(context.Background(), path, append([]Option{WithClock(clk)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s, clk
}

func bucket(i int) string { return fmt.Sprintf("%064x", i+1) }

func req(b string) Request {
	return Request{Bucket: b, BodySHA256: sha256.Sum256([]byte(b)), BodyBytes: 10}
}

func keyed(b, key, body string) Request {
	return Request{Bucket: b, IdempotencyKey: key, BodySHA256: sha256.Sum256([]byte(body)), BodyBytes: len(body)}
}

func mustDecide(tb testing.TB, s *Store, r Request) Decision {
	tb.Helper()
	d, err := s.Decide(context.Background(), r)
	if err != nil {
		tb.Fatalf("decide: %v", err)
	}
	return d
}

// seed sets a bucket's row the way the harness does through TARGET_DB.
func seed(tb testing.TB, s *Store, b string, remaining int, reset int64) {
	tb.Helper()
	res, err := s.DB().Exec(`UPDATE rate_limit_buckets SET quota_remaining=?, reset_utc=? WHERE bucket_id=?`, remaining, reset, b)
	if err != nil {
		tb.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		tb.Fatalf("seed %s: %d rows", b, n)
	}
}
