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

// FirstRequestWindow is the fault FWFirstRequestWindow (its Name says what it breaks).
func FirstRequestWindow() fault.Fault {
	return fault.Fault{
		Name:        FWFirstRequestWindow,
		Breaks:      clause.Of(clause.FW1, clause.FW3),
		Description: "epoch windows claimed, but a window opens at the key's first request and lasts W",
		Seed:        "epoch claimed (spec/003 `windowStart`), window opened by the first request (spec/004)",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-01"}},
		Profile:     profile.FixedWindow,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.PRD{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}

// InsertRace is the fault FWInsertRace (its Name says what it breaks).
func InsertRace() fault.Fault {
	return fault.Fault{
		Name:        FWInsertRace,
		Breaks:      clause.Of(clause.FW4),
		Description: "spec/004: UPDATE, then INSERT when no row was updated, without the unique_violation retry: a fresh key's racing first requests are each allowed",
		Seed:        "spec/004: UPDATE, then INSERT, without the `unique_violation` retry",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-4-01"}, Race: true, Replicas: 1},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			ins := fault.NewFirstWrites(cfg.ClockOrWall())
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return unseenInsert{Tx: tx, ins: ins} })
		},
	}
}

// unseenInsert reads a key as absent within raceWindow of its first write:
// the racing requests' UPDATE found no row and their INSERT's unique
// violation is swallowed.
type unseenInsert struct {
	reference.Tx
	ins *fault.FirstWrites
}

func (t unseenInsert) Bucket(ctx context.Context, id string) (model.State, error) {
	if t.ins.Hidden(id) {
		return model.State{}, nil
	}
	return t.Tx.Bucket(ctx, id)
}

func (t unseenInsert) PutBucket(ctx context.Context, id string, st model.State) error {
	t.ins.Wrote(id)
	return t.Tx.PutBucket(ctx, id, st)
}

// OffByOne is the fault FWOffByOne (its Name says what it breaks).
func OffByOne() fault.Fault {
	return fault.Fault{
		Name:        FWOffByOne,
		Breaks:      clause.Of(clause.FW1),
		Description: "N+1 requests allowed per window",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-1-01"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return fault.Claiming(model.Epoch{Limit: cfg.Limit + 1, Window: cfg.Window}, cfg.Limit)
		}),
	}
}

// AnonymousShared is the fault FWAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.AnonymousSharedOf(FWAnonymousShared, profile.FixedWindow, clause.FW7, "bucket shared by every client", "FW-7-01")
}

// OneShort is the fault FWOneShort (its Name says what it breaks).
func OneShort() fault.Fault {
	return fault.Fault{
		Name:        FWOneShort,
		Breaks:      clause.Of(clause.FW3, clause.FW4),
		Description: "N − 1 requests allowed per window while Limit says N: every window refuses one too early",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-01", "FW-4-01"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return fault.Claiming(model.Epoch{Limit: max(cfg.Limit-1, 1), Window: cfg.Window}, cfg.Limit)
		}),
	}
}

// RefusalMovesWindow is the fault FWRefusalMovesWindow (its Name says what it breaks).
func RefusalMovesWindow() fault.Fault {
	return fault.Fault{
		Name:        FWRefusalMovesWindow,
		Breaks:      clause.Of(clause.FW3),
		Description: "a refusal moves the window's end to now + W: a client retrying while refused never gets its next window",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-03"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			t := now.Unix()
			if req.Cost == 0 || !st.Found || st.Reset <= t || st.Remaining >= req.Cost {
				return m.Step(st, req, now)
			}
			w := int64(cfg.Window / time.Second)
			st.Reset = t + w
			return st, model.Decision{Limit: cfg.Limit, Reset: st.Reset, RetryAfter: w, Write: true}
		}),
	}
}

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
