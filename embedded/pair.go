package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// Pair is the acceptance suite's embedded target: an enabled instance and
// its flag-off twin (AC8), each on a store of its own; with
// Options.Replicas > 1, more enabled instances on the enabled one's store
// (MI-1).
type Pair struct {
	URL string // TARGET_URL
	// URLs are every enabled instance's base URL, URL first: one, or
	// Options.Replicas sharing one store (the SQLite file through a store
	// handle each, or the PostgreSQL database).
	URLs        []string
	DisabledURL string // TARGET_URL_DISABLED
	TargetDB    string // TARGET_DB of the enabled instance: sqlite:/path or postgres://…
	Description string // for reports: "embedded reference (fault none, sqlite)"
	// PenaltiesURL is TARGET_URL_PENALTIES: an instance with
	// Options.Penalties ("" without penalties); PenaltiesDB its TARGET_DB.
	PenaltiesURL string
	PenaltiesDB  string

	servers []*fakeserver.Running
	stores  *stores
	outage  outage
	opts    Options
	onCfg   fakeserver.Config // the enabled instance's, for Restart
	dir     string            // the enabled instance's SQLite file's directory
}

// StartPair starts both instances with limit, window and sentinel.
func StartPair(limit int, window time.Duration, sentinel int, o Options) (p *Pair, err error) {
	st, err := newStores(o.Store, o.Postgres)
	if err != nil {
		return nil, err
	}
	p = &Pair{stores: st, opts: o, Description: "embedded reference (" + o.profile() + "fault " + o.Fault.String() + ", " + string(st.kind) + o.replicas() + ")"}
	defer func() {
		if err != nil {
			_ = p.Close()
			p = nil
		}
	}()
	cfg := o.base()
	cfg.Limit, cfg.Window, cfg.Sentinel = limit, window, sentinel
	if st.kind != fakeserver.StorePostgres {
		cfg.BusyTimeout = o.busyTimeout()
	}
	if st.kind != fakeserver.StorePostgres {
		// A file of the Pair's own, not the server's temporary one, so that
		// Restart finds it again.
		if p.dir, err = os.MkdirTemp("", "rlspec-embedded-"); err != nil {
			return nil, fmt.Errorf("temp dir: %w", err)
		}
	}
	for _, enabled := range []bool{true, false} {
		c := cfg
		c.Enabled = enabled
		path := ""
		if enabled && p.dir != "" {
			path = filepath.Join(p.dir, "reference.db")
		}
		if err := st.configure(&c, path); err != nil {
			return nil, err
		}
		run, err := o.start(c, "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		p.servers = append(p.servers, run)
		if enabled {
			p.onCfg = c
		}
	}
	on := p.servers[0]
	p.URL, p.DisabledURL, p.TargetDB = on.URL, p.servers[1].URL, on.Server.TargetDB()
	p.URLs = []string{on.URL}
	// The other replicas: the enabled instance's configuration, its store.
	more, err := o.startN(p.onCfg, max(o.Replicas, 1)-1)
	p.servers = append(p.servers, more...)
	if err != nil {
		return nil, err
	}
	for _, r := range more {
		p.URLs = append(p.URLs, r.URL)
	}
	if len(o.Penalties) > 0 {
		if err := p.startPenalties(cfg, o); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Restart stops the enabled instance and starts it again on its store and
// its address (PS-1): what it acknowledged must still be spent.
func (p *Pair) Restart(ctx context.Context) error {
	old := p.servers[0]
	if err := old.Close(); err != nil {
		return fmt.Errorf("restart: stop: %w", err)
	}
	run, err := p.opts.start(p.onCfg, old.Addr)
	if err != nil {
		return fmt.Errorf("restart: start on %s: %w", old.Addr, err)
	}
	p.servers[0] = run
	return ctx.Err()
}

// Close ends an outage, stops both instances and removes their stores.
func (p *Pair) Close() error {
	err := p.StoreUp(context.Background())
	err = errors.Join(err, closeAll(p.servers, p.stores))
	if p.dir != "" {
		err = errors.Join(err, os.RemoveAll(p.dir))
	}
	return err
}

// Point is tc pointed at the pair: its TARGET_URL, TARGET_URL_DISABLED,
// TARGET_URL_PENALTIES, TARGET_DB and DB_SCHEMA. What no setting says (its
// replicas, URLs, and the penalties instance's store, PenaltiesDB) stays
// on the pair for the run to take.
func (p *Pair) Point(tc service.Config) service.Config {
	tc.URL, tc.DisabledURL, tc.PenaltiesURL = p.URL, p.DisabledURL, p.PenaltiesURL
	tc.DB, tc.Schema = p.TargetDB, service.SchemaPRD
	return tc
}

// Claim is tc with what the embedded reference claims beyond its profile's
// defaults, when FEATURES was not given: persistence, since Restart restarts
// it on its store, and multi-instance when it runs as several instances
// (urls, REPLICAS > 1).
func Claim(tc service.Config, urls []string) service.Config {
	if tc.Features == nil {
		tc.Features = append(tc.ForProfile(tc.Profile).Features, profile.Persistence)
		if len(urls) > 1 {
			tc.Features = append(tc.Features, profile.MultiInstance)
		}
	}
	return tc
}
