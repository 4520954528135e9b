package reference

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite"
)

// Errors of the store.
var (
	// ErrBusy means the database stayed locked by another writer for longer
	// than the busy timeout. The caller must not allow the request; the
	// server answers 503 with Retry-After.
	ErrBusy = errors.New("database busy")
	// ErrClosed means the store was closed.
	ErrClosed = errors.New("store closed")
)

// Defaults of the store's options.
const (
	DefaultLimit       = 500
	DefaultWindow      = time.Hour
	DefaultSentinel    = 999
	DefaultBusyTimeout = 10 * time.Second
	DefaultRetention   = 24 * time.Hour
	DefaultMaxBatch    = 256
)

// Outcome is what a decision did.
type Outcome int

// Outcomes of Decide.
const (
	// Allowed: one unit was spent (or the limiter is disabled), the ride was
	// ingested and, with an Idempotency-Key, the response recorded.
	Allowed Outcome = iota + 1
	// Limited: the bucket is exhausted; nothing changed (HTTP 429).
	Limited
	// Replayed: an identical (key, body) was seen; the stored response is
	// returned and nothing is spent.
	Replayed
	// KeyReused: the Idempotency-Key was seen with a different body; nothing
	// changed (HTTP 422, error idempotency_key_reused).
	KeyReused
)

func (o Outcome) String() string {
	switch o {
	case Allowed:
		return "allowed"
	case Limited:
		return "limited"
	case Replayed:
		return "replayed"
	case KeyReused:
		return "key_reused"
	}
	return "outcome(" + strconv.Itoa(int(o)) + ")"
}

// Request is one check-and-spend: the canonical bucket id, the optional
// Idempotency-Key and the SHA-256 of the raw request body.
type Request struct {
	Bucket         string
	IdempotencyKey string
	BodySHA256     [32]byte
	BodyBytes      int
}

// Decision is the result of Decide.
type Decision struct {
	Outcome Outcome
	// Status and Body are the response: 200 and the accepted body for
	// Allowed, the stored ones for Replayed; 429/422 with a nil Body
	// otherwise (the HTTP layer renders those).
	Status int
	Body   []byte
	// Limit, Remaining and Reset (unix seconds) are the rate-limit headers.
	// With the limiter disabled Remaining is the sentinel.
	Limit     int
	Remaining int
	Reset     int64
	// RetryAfter is seconds until Reset (at least 1) for Limited.
	RetryAfter int64
	// RideID names the ingested row (Allowed only).
	RideID string
}

// Bugs are deliberate defects for rlspec's self-tests (fakeserver faults).
// The zero value is the correct reference.
type Bugs struct {
	CheckThenAct        bool // read the bucket in one transaction, write it in another
	ReplaySpends        bool // replays spend a unit
	ConcurrentReplays   bool // replay lookup outside the spend transaction
	ReplayIgnoresBody   bool // same key, different body gets the cached response
	NoReset             bool // the window never resets
	ResetKeepsReset     bool // a reset refills but does not move reset_utc
	ResetRace           bool // the expiry check is outside the transaction: each racer refills
	LimitedPushesWindow bool // a 429 moves reset_utc to now + window
	ProcessCache        bool // per-process in-memory quota cache
}

// Option configures a Store.
type Option func(*Store)

// WithLimit sets the quota per window (default 500).
func WithLimit(n int) Option { return func(s *Store) { s.limit = n } }

// WithWindow sets the window length (default 1h, whole seconds, at least 1s).
func WithWindow(d time.Duration) Option { return func(s *Store) { s.window = d } }

// WithEnabled switches enforcement (default true). Disabled, every request is
// allowed, nothing is spent and Remaining is the sentinel.
func WithEnabled(on bool) Option { return func(s *Store) { s.enabled = on } }

// WithSentinel sets Remaining reported when disabled (default 999).
func WithSentinel(n int) Option { return func(s *Store) { s.sentinel = n } }

// WithClock sets the clock (default WallClock).
func WithClock(c Clock) Option { return func(s *Store) { s.clock = c } }

// WithBusyTimeout sets SQLite's busy timeout (default 10s).
func WithBusyTimeout(d time.Duration) Option { return func(s *Store) { s.busyTimeout = d } }

// WithRetention sets how long idle buckets, idempotency records and ingest
// rows are kept (default 24h).
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// WithMaxBatch caps how many decisions share one transaction (default 256;
// 1 disables group commit).
func WithMaxBatch(n int) Option { return func(s *Store) { s.maxBatch = n } }

// WithBugs switches on deliberate defects (self-tests only).
func WithBugs(b Bugs) Option { return func(s *Store) { s.bugs = b } }

// Store is the reference limiter on one SQLite file. All writes go through
// one writer goroutine that groups pending decisions into one IMMEDIATE
// transaction and one fsync (group commit); each caller gets its answer after
// the commit. A Store is safe for concurrent use, and several processes may
// open the same file.
type Store struct {
	limit       int
	window      time.Duration
	enabled     bool
	sentinel    int
	clock       Clock
	busyTimeout time.Duration
	retention   time.Duration
	maxBatch    int
	bugs        Bugs

	path string
	db   *sql.DB // pool for out-of-writer reads (faults) and health checks

	jobs       chan *job
	closing    chan struct{}
	stopped    chan struct{}
	once       sync.Once
	commits    int
	batchStats BatchStats
	statsMu    sync.Mutex

	// writer state, owned by the writer goroutine
	wconn *sql.Conn
	stmts stmts

	cacheMu sync.Mutex
	cache   map[string]bucketRow // Bugs.ProcessCache only
}

type bucketRow struct {
	remaining int
	reset     int64
}

type stmts struct {
	getBucket, insBucket, setBucket, setReset *sql.Stmt
	getIdem, putIdem, ingest                  *sql.Stmt
	spendFast                                 *sql.Stmt
}

// job runs inside the writer's transaction.
type job struct {
	run  func(ctx context.Context) error
	done chan error
}

// Open opens (creating if needed) the database at path, migrates it to the
// latest schema and starts the writer.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	s := &Store{
		limit:       DefaultLimit,
		window:      DefaultWindow,
		enabled:     true,
		sentinel:    DefaultSentinel,
		clock:       WallClock{},
		busyTimeout: DefaultBusyTimeout,
		retention:   DefaultRetention,
		maxBatch:    DefaultMaxBatch,
		path:        path,
		jobs:        make(chan *job),
		closing:     make(chan struct{}),
		stopped:     make(chan struct{}),
		cache:       map[string]bucketRow{},
	}
	for _, o := range opts {
		o(s)
	}
	switch {
	case path == "":
		return nil, errors.New("open store: empty database path")
	case s.limit < 1:
		return nil, fmt.Errorf("open store: limit %d < 1", s.limit)
	case s.window < time.Second || s.window%time.Second != 0:
		return nil, fmt.Errorf("open store: window %v is not a whole number of seconds >= 1s", s.window)
	case s.busyTimeout < 0 || s.retention <= 0:
		return nil, errors.New("open store: negative busy timeout or non-positive retention")
	case s.clock == nil:
		return nil, errors.New("open store: nil clock")
	}
	if s.maxBatch < 1 {
		s.maxBatch = 1
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(s.busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	// The writer checkpoints between batches (checkpointEvery), not
	// inside a commit.
	q.Add("_pragma", "wal_autocheckpoint(0)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	s.db = db
	if err := Migrate(ctx, db, LatestVersion()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", busy(err))
	}
	if err := s.prepareWriter(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	go s.writer()
	return s, nil
}

func (s *Store) prepareWriter(ctx context.Context) error {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("writer conn: %w", err)
	}
	s.wconn = c
	prep := func(dst **sql.Stmt, q string) {
		if err != nil {
			return
		}
		*dst, err = c.PrepareContext(ctx, q)
	}
	prep(&s.stmts.getBucket, `SELECT quota_remaining, reset_utc FROM rate_limit_buckets WHERE bucket_id = ?`)
	prep(&s.stmts.insBucket, `INSERT INTO rate_limit_buckets (bucket_id, quota_remaining, reset_utc) VALUES (?, ?, ?)
		ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = excluded.quota_remaining, reset_utc = excluded.reset_utc`)
	prep(&s.stmts.setBucket, `UPDATE rate_limit_buckets SET quota_remaining = ?, reset_utc = ? WHERE bucket_id = ?`)
	prep(&s.stmts.spendFast, `UPDATE rate_limit_buckets SET quota_remaining = quota_remaining - 1
		WHERE bucket_id = ? AND quota_remaining > 0 AND reset_utc > ? RETURNING quota_remaining, reset_utc`)
	prep(&s.stmts.setReset, `UPDATE rate_limit_buckets SET reset_utc = ? WHERE bucket_id = ?`)
	prep(&s.stmts.getIdem, `SELECT body_sha256, status, response FROM idempotency_keys WHERE idem_key = ? AND created_utc > ?`)
	prep(&s.stmts.putIdem, `INSERT INTO idempotency_keys (idem_key, body_sha256, status, response, created_utc) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (idem_key) DO UPDATE SET body_sha256 = excluded.body_sha256, status = excluded.status,
		response = excluded.response, created_utc = excluded.created_utc`)
	prep(&s.stmts.ingest, `INSERT INTO ride_ingest (ride_id, body_sha256, body_bytes, received_utc) VALUES (?, ?, ?, ?)`)
	if err != nil {
		c.Close()
		return fmt.Errorf("prepare: %w", err)
	}
	return nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Limit is the quota per window.
func (s *Store) Limit() int { return s.limit }

// Window is the window length.
func (s *Store) Window() time.Duration { return s.window }

// Enabled tells whether the limit is enforced.
func (s *Store) Enabled() bool { return s.enabled }

// Close stops the writer and closes the database. Pending decisions get
// ErrClosed.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.closing) })
	<-s.stopped
	return s.db.Close()
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping: %w", busy(err))
	}
	return nil
}

// DB exposes the connection pool for tests and state inspection.
func (s *Store) DB() *sql.DB { return s.db }

// submit hands run to the writer and waits for the commit.
func (s *Store) submit(ctx context.Context, run func(ctx context.Context) error) error {
	j := &job{run: run, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	case <-s.closing:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once handed over, the job is committed or not by the writer; wait
	// for its verdict so the answer matches the database.
	return <-j.done
}

func (s *Store) writer() {
	defer close(s.stopped)
	defer s.wconn.Close()
	ctx := context.Background()
	batch := make([]*job, 0, s.maxBatch)
	for {
		batch = batch[:0]
		select {
		case j := <-s.jobs:
			batch = append(batch, j)
		case <-s.closing:
			return
		}
	drain:
		for len(batch) < s.maxBatch {
			select {
			case j := <-s.jobs:
				batch = append(batch, j)
			default:
				break drain
			}
		}
		s.runBatch(ctx, batch)
		s.statsMu.Lock()
		s.batchStats.Batches++
		s.batchStats.Jobs += int64(len(batch))
		s.statsMu.Unlock()
		if s.commits++; s.commits%checkpointEvery == 0 {
			// Between batches no transaction of this process is open, so
			// a PASSIVE checkpoint here normally backfills the whole WAL
			// and the next commit restarts it from the top: the WAL stays
			// small and commits overwrite in place (cheaper fsyncs).
			_, _ = s.wconn.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)") // best effort; retried later
		}
		// Let the callers just answered submit again before the next
		// batch is cut, so batches stay large under steady load.
		runtime.Gosched()
	}
}

// checkpointEvery is how many commits pass between WAL checkpoints.
const checkpointEvery = 256

// BatchStats counts the writer's transactions and the decisions they held.
type BatchStats struct{ Batches, Jobs int64 }

// Stats returns the group-commit counters.
func (s *Store) Stats() BatchStats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.batchStats
}

// runBatch runs the jobs in one transaction. If one fails the batch is
// rolled back and every job is run again in its own transaction, so one bad
// job cannot fail its neighbours.
func (s *Store) runBatch(ctx context.Context, batch []*job) {
	err := s.inTx(ctx, func() error {
		for _, j := range batch {
			if err := j.run(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	// A busy database (BEGIN or COMMIT timed out on the lock) is not one
	// job's fault: retrying each job would wait the busy timeout once per
	// job, so every job gets ErrBusy at once.
	if err == nil || len(batch) == 1 || errors.Is(err, ErrBusy) {
		for _, j := range batch {
			j.done <- err
		}
		return
	}
	for _, j := range batch {
		j.done <- s.inTx(ctx, func() error { return j.run(ctx) })
	}
}

func (s *Store) inTx(ctx context.Context, fn func() error) error {
	if _, err := s.wconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("begin: %w", busy(err))
	}
	if err := fn(); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return busy(err)
	}
	if _, err := s.wconn.ExecContext(ctx, "COMMIT"); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("commit: %w", busy(err))
	}
	return nil
}

// busy maps SQLite's BUSY/LOCKED to ErrBusy (keeping the original text).
func busy(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		if c := se.Code() & 0xff; c == 5 || c == 6 { // SQLITE_BUSY, SQLITE_LOCKED
			return fmt.Errorf("%w: %v", ErrBusy, err)
		}
	}
	return err
}

func (s *Store) windowSec() int64 { return int64(s.window / time.Second) }

func (s *Store) retentionSec() int64 {
	r := int64(s.retention / time.Second)
	if r < 1 {
		r = 1
	}
	return r
}

func newRideID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return hex.EncodeToString(b[:])
}

func acceptedBody(rideID string) []byte {
	return []byte(`{"status":"accepted","ride_id":"` + rideID + `"}`)
}
