package penalties

import (
	"context"
	"sync"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// LostViolation is the fault PNLostViolation (its Name says what it breaks).
func LostViolation() fault.Fault {
	return fault.Fault{
		Name:        PNLostViolation,
		Breaks:      clause.Of(clause.PN3, clause.PN1),
		Description: "a non-atomic read-modify-write of the violation count: violations of a key within 200 ms count once",
		Seed:        "spec/003's applyPenalty: the violation count selected, then upserted as count + 1, not atomically; deterministic here: a key's count read once is what its requests read while they come less than 200 ms apart",
		Detectors:   fault.Detectors{Race: true, Replicas: 1},
		Profile:     profile.SlidingLog,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			counts := &staleCounts{clock: cfg.ClockOrWall(), read: map[string]staleCount{}}
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return lostViolationTx{Tx: tx, counts: counts} })
		},
	}
}

// staleCounts remembers, per key, the violation record read at the start
// of its race and when the last request read it.
type staleCounts struct {
	clock reference.Clock
	mu    sync.Mutex
	read  map[string]staleCount
}

type staleCount struct {
	rec model.Penalty
	at  time.Time
}

// lostViolationTx reads a key's violation count (and the time of its last
// violation) as it was read at the start of its race; the rest of the
// state, the penalty's end included, is the committed one.
type lostViolationTx struct {
	reference.Tx
	counts *staleCounts
}

func (t lostViolationTx) Bucket(ctx context.Context, id string) (model.State, error) {
	st, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return st, err
	}
	now := t.counts.clock.Now()
	t.counts.mu.Lock()
	defer t.counts.mu.Unlock()
	r, ok := t.counts.read[id]
	if !ok || now.Sub(r.at) >= fault.RaceWindow {
		r.rec = st.Penalty // a new race starts from the committed count
	}
	t.counts.read[id] = staleCount{rec: r.rec, at: now} // the race goes on while requests keep coming
	st.Penalty.Count, st.Penalty.Last = r.rec.Count, r.rec.Last
	return st, nil
}
