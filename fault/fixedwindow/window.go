package fixedwindow

import (
	"context"

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
