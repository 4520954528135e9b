package fault

import (
	"context"
	"sync"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// txStore is a store whose Update transactions pass through wrap: how store
// faults wrap the correct store. View, Cleanup and the rest are the inner
// store's.
type txStore struct {
	reference.Store
	wrap func(tx reference.Tx) reference.Tx
}

// WrapTx is the Wrap of a store fault that wraps each Update's
// transaction with f.
func WrapTx(f func(tx reference.Tx) reference.Tx) fakeserver.Wrap {
	return fakeserver.Wrap{Store: func(s reference.Store) reference.Store { return txStore{Store: s, wrap: f} }}
}

// Update runs fn on the wrapped transaction.
func (s txStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	return s.Store.Update(ctx, func(ctx context.Context, tx reference.Tx) error { return fn(ctx, s.wrap(tx)) })
}

// effectStore is txStore for faults that keep state outside the store (a
// process's memory, a cache): wrap gets the run's effects, which take
// effect once the Update has committed, for its last run of fn only, as the
// store's own writes do. (A store may run fn more than once: a failed group
// commit's retry alone, the PostgreSQL store's optimistic attempt and its
// locked fallback.)
type effectStore struct {
	reference.Store
	wrap func(tx reference.Tx, e *effects) reference.Tx
}

// effects are one run of fn's writes outside the store.
type effects []func()

func (e *effects) add(f func()) { *e = append(*e, f) }

// Update runs fn on the wrapped transaction and applies its last run's
// effects once it committed.
func (s effectStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	var last *effects
	err := s.Store.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
		last = new(effects)
		return fn(ctx, s.wrap(tx, last))
	})
	if err == nil && last != nil {
		for _, f := range *last {
			f()
		}
	}
	return err
}

// staleStore is a store that checks before it acts: each Update first runs
// fn on committed state (Store.View) up to its first write, recording what
// fn read, and then runs fn in the transaction with wrap deciding which of
// those earlier reads it sees. This is how the time-of-check/time-of-use
// faults wrap the correct store.
//
// A real check-then-act race needs a second request to check between the
// first one's check and its write, which depends on scheduling: the
// self-test must catch the fault every run. So the race is widened, the
// same for every such fault: a check reads the key as it was before its
// writes of the last RaceWindow while another request on the key is in
// flight, or when one of those writes came on another connection (a
// concurrent client's: a starved server may answer a concurrent batch one
// request after another, so that none is in flight beside another). A
// client's one-after-another requests on one connection check the
// committed state, as the correct store does.
type staleStore struct {
	reference.Store
	lag  *lag
	wrap func(tx reference.Tx, earlier Reads) reference.Tx
}

// NewStaleStore wraps s; clock times raceWindow.
func NewStaleStore(s reference.Store, clock reference.Clock, wrap func(tx reference.Tx, earlier Reads) reference.Tx) staleStore {
	return staleStore{Store: s, wrap: wrap, lag: &lag{clock: clock, inflight: map[string]int{}, bursts: map[string]burst{}}}
}

// Reads is what an Update's check saw, by bucket id.
type Reads struct {
	Buckets map[string]model.State
}

// Update checks, then acts.
func (s staleStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	earlier := Reads{Buckets: map[string]model.State{}}
	conn := fakeserver.ConnOf(ctx)
	defer s.lag.leave(earlier)
	// The check ends at fn's first write (reference.ErrReadOnly), or
	// earlier on any error: what was read so far is the check.
	_ = s.Store.View(ctx, func(ctx context.Context, tx reference.Tx) error {
		return fn(ctx, recorder{Tx: tx, r: earlier, lag: s.lag, conn: conn})
	})
	return s.Store.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
		return fn(ctx, s.wrap(writer{Tx: tx, lag: s.lag, conn: conn}, earlier))
	})
}

// lag keeps, per key, the requests in flight and the state before the
// key's latest burst of writes.
type lag struct {
	clock    reference.Clock
	mu       sync.Mutex
	inflight map[string]int
	bursts   map[string]burst
}

// burst is a key's state before its first write of the burst, when, the
// connections its writes came on ("" unknown) and the states they wrote.
type burst struct {
	before model.State
	at     time.Time
	conns  map[string]bool
	wrote  map[model.State]bool
}

// knows reports whether st is the burst's state before or one it wrote: a
// committed state it does not know was written outside the store (TARGET_DB
// seeding), and the race starts again from it.
func (b burst) knows(st model.State) bool {
	return st == b.before || b.wrote[stored(st)]
}

// stored is st as the store reads it back.
func stored(st model.State) model.State {
	st.Found = true
	return st
}

// check notes a request on conn checking id and returns what it sees of
// st, the committed state: the state before the key's burst when the burst
// is younger than RaceWindow and the request races it.
func (l *lag) check(id, conn string, st model.State) model.State {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight[id]++
	b, ok := l.bursts[id]
	if ok && !b.knows(st) {
		delete(l.bursts, id)
		return st
	}
	if ok && l.clock.Now().Sub(b.at) < RaceWindow && (l.inflight[id] > 1 || b.byOther(conn)) {
		return b.before
	}
	return st
}

// byOther reports whether a write of b came on another connection than
// conn, both known.
func (b burst) byOther(conn string) bool {
	if conn == "" {
		return false
	}
	for c := range b.conns {
		if c != "" && c != conn {
			return true
		}
	}
	return false
}

// leave notes the end of a request that checked the keys of earlier.
func (l *lag) leave(earlier Reads) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := range earlier.Buckets {
		if l.inflight[id]--; l.inflight[id] <= 0 {
			delete(l.inflight, id)
		}
	}
}

// wrote notes a write of st to id on conn whose state before it was
// before.
func (l *lag) wrote(id, conn string, before, st model.State) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	b, ok := l.bursts[id]
	if !ok || now.Sub(b.at) >= RaceWindow {
		b = burst{before: before, at: now, conns: map[string]bool{}, wrote: map[model.State]bool{}}
		l.bursts[id] = b
	}
	b.conns[conn] = true
	b.wrote[stored(st)] = true
}

// recorder notes every read of a check.
type recorder struct {
	reference.Tx
	r    Reads
	lag  *lag
	conn string
}

func (t recorder) Bucket(ctx context.Context, id string) (model.State, error) {
	st, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return st, err
	}
	if _, again := t.r.Buckets[id]; !again {
		st = t.lag.check(id, t.conn, st)
		t.r.Buckets[id] = st
	}
	return t.r.Buckets[id], nil
}

// writer notes each write's state before it (the transaction's own view).
type writer struct {
	reference.Tx
	lag  *lag
	conn string
}

func (t writer) PutBucket(ctx context.Context, id string, st model.State) error {
	before, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return err
	}
	t.lag.wrote(id, t.conn, before, st)
	return t.Tx.PutBucket(ctx, id, st)
}
