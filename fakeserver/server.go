package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rlspec/rlspec/postgres"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/sqlite"
)

// Server is the reference HTTP server: POST /v1/ride_summary and GET
// /healthz on a reference.Reference (model + SQLite or PostgreSQL store). It
// owns the store.
type Server struct {
	cfg     Config
	ref     *reference.Reference
	db      *sqlite.Store // nil with STORE=postgres
	keyer   Keyer
	tiers   map[string]limitedRoute // RL_TIERS: path → its limiter (bucket unset)
	handler http.Handler
	log     *slog.Logger
	tempDir string

	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

var _ http.Handler = (*Server)(nil)

// New opens the store, builds the reference from the configured model and
// the parts Config.Wrap replaces, and starts the periodic cleanup.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("fakeserver config: %w", err)
	}
	if cfg.GridAnchor.IsZero() {
		cfg.GridAnchor = cfg.ClockOrWall().Now() // RL_WINDOW_ALIGN=grid: windows start when the server does
	}
	s := &Server{cfg: cfg, log: cfg.Logger, stop: make(chan struct{})}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	path := cfg.DBPath
	if path == "" && cfg.Store == StoreSQLite {
		dir, err := os.MkdirTemp("", "rlspec-reference-")
		if err != nil {
			return nil, fmt.Errorf("temp database: %w", err)
		}
		s.tempDir = dir
		path = filepath.Join(dir, "rl.db")
	}
	s.keyer = cfg.Wrap.keyer(cfg.keyer()) // before open: the tiers key with it
	if err := s.open(path); err != nil {
		s.removeTemp()
		return nil, err
	}
	s.handler = cfg.Wrap.handler(requireAuth(cfg, http.HandlerFunc(s.route)))
	every := cfg.CleanupEvery
	if every == 0 {
		every = time.Hour
	}
	s.wg.Add(1)
	go s.cleanupLoop(every)
	return s, nil
}

func (s *Server) open(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var store reference.Store
	switch s.cfg.Store {
	case StorePostgres:
		var popts []postgres.Option
		if s.cfg.BusyTimeout > 0 {
			popts = append(popts, postgres.WithBusyTimeout(s.cfg.BusyTimeout))
		}
		pg, err := postgres.Open(ctx, s.cfg.DatabaseURL, popts...)
		if err != nil {
			return err
		}
		store = pg
	default:
		var sopts []sqlite.Option
		if s.cfg.BusyTimeout > 0 {
			sopts = append(sopts, sqlite.WithBusyTimeout(s.cfg.BusyTimeout))
		}
		db, err := sqlite.Open(ctx, path, sopts...)
		if err != nil {
			return err
		}
		s.db, store = db, db
	}
	ropts := []reference.Option{reference.WithClock(s.cfg.ClockOrWall())}
	if s.cfg.Retention > 0 {
		ropts = append(ropts, reference.WithRetention(s.cfg.Retention))
	}
	ref, err := reference.New(s.cfg.Wrap.model(s.cfg.Model()), s.cfg.Wrap.store(store), ropts...)
	if err != nil {
		return errors.Join(err, store.Close())
	}
	s.ref = ref
	if err := s.openTiers(store, ropts); err != nil {
		return errors.Join(err, store.Close())
	}
	return nil
}

// Reference is the server's limiter.
func (s *Server) Reference() *reference.Reference { return s.ref }

// Store is the server's SQLite store (not wrapped), for inspection; nil
// with STORE=postgres.
func (s *Server) Store() *sqlite.Store { return s.db }

// DBPath is the SQLite database file in use ("" with STORE=postgres).
func (s *Server) DBPath() string {
	if s.db == nil {
		return ""
	}
	return s.db.Path()
}

// TargetDB is the state-access URL of the server's store as rlspec's
// TARGET_DB takes it: sqlite:/path or the postgres:// URL.
func (s *Server) TargetDB() string {
	if s.cfg.Store == StorePostgres {
		return s.cfg.DatabaseURL
	}
	return "sqlite:" + s.DBPath()
}

// Config is the configuration the server runs with.
func (s *Server) Config() Config { return s.cfg }

// ClientAddr is the client address the reference keys r by when r names no
// valid device_bucket.
func (s *Server) ClientAddr(r *http.Request) string {
	return DeviceKeyer{TrustedProxies: s.cfg.TrustedProxies}.ClientAddr(r)
}

// Cleanup runs the retention cleanup now (the server also runs it every
// Config.CleanupEvery).
func (s *Server) Cleanup(ctx context.Context) (reference.CleanupStats, error) {
	return s.ref.Cleanup(ctx)
}

func (s *Server) cleanupLoop(every time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			st, err := s.ref.Cleanup(ctx)
			cancel()
			if err != nil {
				s.log.Warn("cleanup failed", "err", err)
				continue
			}
			s.log.Info("cleanup", "buckets", st.Buckets, "idempotency_keys", st.IdempotencyKeys, "rides", st.Rides)
		}
	}
}

// Close stops the cleanup, closes the store and removes a temporary database.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.stop)
		s.wg.Wait()
		err = s.ref.Close()
		s.removeTemp()
	})
	return err
}

func (s *Server) removeTemp() {
	if s.tempDir != "" {
		_ = os.RemoveAll(s.tempDir)
	}
}
