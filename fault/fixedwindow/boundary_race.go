package fixedwindow

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

// BoundaryRace is the fault FWBoundaryRace (its Name says what it breaks).
func BoundaryRace() fault.Fault {
	return fault.Fault{
		Name:        FWBoundaryRace,
		Breaks:      clause.Of(clause.FW3, clause.FW2),
		Description: "the window's expiry is read outside the transaction: requests racing at the boundary each reset it",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-02"}, Race: true, Replicas: 1},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			rs := &resets{clock: cfg.ClockOrWall(), old: map[string]model.State{}, at: map[string]time.Time{}}
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return &unseenReset{Tx: tx, rs: rs} })
		},
	}
}

// resets remembers, per key, the expired state a new window replaced and
// when.
type resets struct {
	clock reference.Clock
	mu    sync.Mutex
	old   map[string]model.State
	at    map[string]time.Time
}

// unseenReset is one transaction: it reads a key as it was before its
// latest reset while that reset is younger than raceWindow: each request
// racing the boundary read the expired window before the first reset was
// written, and each opens the new window again.
type unseenReset struct {
	reference.Tx
	rs   *resets
	read map[string]model.State // what this transaction read
}

func (t *unseenReset) Bucket(ctx context.Context, id string) (model.State, error) {
	st, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return st, err
	}
	t.rs.mu.Lock()
	if at, ok := t.rs.at[id]; ok && t.rs.clock.Now().Sub(at) < fault.RaceWindow {
		st = t.rs.old[id]
	}
	t.rs.mu.Unlock()
	if t.read == nil {
		t.read = map[string]model.State{}
	}
	t.read[id] = st
	return st, nil
}

func (t *unseenReset) PutBucket(ctx context.Context, id string, st model.State) error {
	before, ok := t.read[id]
	now := t.rs.clock.Now()
	if ok && before.Found && before.Reset != st.Reset && before.Reset <= now.Unix() {
		t.rs.mu.Lock()
		if at, racing := t.rs.at[id]; !racing || now.Sub(at) >= fault.RaceWindow {
			t.rs.old[id], t.rs.at[id] = before, now // the first reset of this boundary
		}
		t.rs.mu.Unlock()
	}
	return t.Tx.PutBucket(ctx, id, st)
}
