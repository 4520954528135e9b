package reference_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/sqlite"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// env is the reference on a fresh SQLite file with a fake clock.
type env struct {
	*reference.Reference
	db *sqlite.Store
}

// setup is what a test changes of the PRD defaults (500 per hour).
type setup struct {
	limit    int
	window   time.Duration
	off      bool
	sentinel int
}

type opt func(*setup)

func withLimit(n int) opt            { return func(s *setup) { s.limit = n } }
func withWindow(d time.Duration) opt { return func(s *setup) { s.window = d } }
func withFlagOff(sentinel int) opt   { return func(s *setup) { s.off, s.sentinel = true, sentinel } }

func openTest(tb testing.TB, opts ...opt) (*env, *reference.FakeClock) {
	tb.Helper()
	su := setup{limit: 500, window: time.Hour}
	for _, o := range opts {
		o(&su)
	}
	var m model.Model = model.PRD{Limit: su.limit, Window: su.window}
	if su.off {
		m = model.FlagOff{Limit: su.limit, Window: su.window, Sentinel: su.sentinel}
	}
	clk := reference.NewFakeClock(t0)
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "rl.db"))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := reference.New(m, st, reference.WithClock(clk))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close() })
	return &env{Reference: r, db: st}, clk
}

// BucketState reads a bucket's stored row.
func (e *env) BucketState(ctx context.Context, b string) (remaining int, reset int64, found bool, err error) {
	st, err := e.Bucket(ctx, b)
	return st.Remaining, st.Reset, st.Found, err
}

func bucket(i int) string { return fmt.Sprintf("%064x", i+1) }

func req(b string) reference.Request {
	return reference.Request{Bucket: b, BodySHA256: sha256.Sum256([]byte(b)), BodyBytes: 10}
}

func keyed(b, key, body string) reference.Request {
	return reference.Request{Bucket: b, IdempotencyKey: key, BodySHA256: sha256.Sum256([]byte(body)), BodyBytes: len(body)}
}

func mustDecide(tb testing.TB, s *env, r reference.Request) reference.Decision {
	tb.Helper()
	d, err := s.Decide(context.Background(), r)
	if err != nil {
		tb.Fatalf("decide: %v", err)
	}
	return d
}

// seed sets a bucket's row the way the harness does through TARGET_DB.
func seed(tb testing.TB, s *env, b string, remaining int, reset int64) {
	tb.Helper()
	res, err := s.db.DB().Exec(`UPDATE rate_limit_buckets SET quota_remaining=?, reset_utc=? WHERE bucket_id=?`, remaining, reset, b)
	if err != nil {
		tb.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		tb.Fatalf("seed %s: %d rows", b, n)
	}
}

func rowCount(t *testing.T, s *env, table string) int {
	t.Helper()
	var n int
	if err := s.db.DB().QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
