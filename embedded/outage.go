package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/rlspec/rlspec/fakeserver"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// outageBusyTimeout is the embedded SQLite pair's busy timeout: how long a
// decision waits for a held write lock before the server answers 503. Short,
// so that requests during a store outage come back quickly, yet long enough
// for TARGET_DB's seeding commits on a loaded machine (250 ms gave the
// correct reference a 503 under make test's load).
const outageBusyTimeout = time.Second

// replicaBusyTimeout is it with several replicas on one file: each waits
// for the others' group commits, so a burst spread over them must not
// turn into 503s; requests during an outage come back after it.
const replicaBusyTimeout = time.Second

// busyTimeout is the SQLite busy timeout of the Pair's instances.
func (o Options) busyTimeout() time.Duration {
	if o.Replicas > 1 {
		return replicaBusyTimeout
	}
	return outageBusyTimeout
}

// outage takes a Pair's store away and brings it back: PostgreSQL's
// databases of the Pair let no session in and theirs are ended
// (pgcluster.Disconnect; the cluster serves other sets on), then let them
// in again; SQLite's database file is held by a write transaction (BEGIN
// IMMEDIATE) of another connection.
type outage struct {
	mu   sync.Mutex
	db   *sql.DB   // SQLite: the connection holding the write lock
	conn *sql.Conn // nil while the store is up
	down bool
}

// StoreDown makes the enabled instance's store unavailable (FAIL-1,
// FAIL-2): its decisions fail until StoreUp.
func (p *Pair) StoreDown(ctx context.Context) error {
	o := &p.outage
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.down {
		return errors.New("store down: already down")
	}
	if p.stores.kind == fakeserver.StorePostgres {
		if err := p.stores.down(ctx); err != nil {
			return fmt.Errorf("store down: %w", err)
		}
		o.down = true
		return nil
	}
	path := p.servers[0].Server.DBPath()
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("store down: %w", err)
	}
	conn, err := db.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
	}
	if err != nil {
		if conn != nil {
			_ = conn.Close()
		}
		_ = db.Close()
		return fmt.Errorf("store down: hold the SQLite write lock: %w", err)
	}
	o.db, o.conn, o.down = db, conn, true
	return nil
}

// StoreUp ends StoreDown's outage; the store keeps what it held before.
func (p *Pair) StoreUp(ctx context.Context) error {
	o := &p.outage
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down {
		return nil
	}
	if p.stores.kind == fakeserver.StorePostgres {
		if err := p.stores.up(ctx); err != nil {
			return fmt.Errorf("store up: %w", err)
		}
		o.down = false
		return nil
	}
	_, err := o.conn.ExecContext(ctx, "ROLLBACK")
	err = errors.Join(err, o.conn.Close(), o.db.Close())
	o.db, o.conn, o.down = nil, nil, false
	if err != nil {
		return fmt.Errorf("store up: release the SQLite write lock: %w", err)
	}
	return nil
}
