package fault

import (
	"context"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// FWFirstRequestWindow claims epoch windows (WINDOW_ALIGN=epoch, spec/003)
// but opens each window at the key's first request, as spec/004 does.
const FWFirstRequestWindow Name = "fw-first-request-window"

// FWInsertRace is spec/004's UPDATE-then-INSERT without the
// unique_violation retry (spec/003 likewise): the first requests of a key
// race their own insert and each is let through.
const FWInsertRace Name = "fw-insert-race"

// FWOffByOne lets N+1 requests through per window (a count compared with
// > after it was incremented, or >= before).
const FWOffByOne Name = "fw-off-by-one"

func fwFirstRequestWindow() Fault {
	return Fault{
		Name:        FWFirstRequestWindow,
		Breaks:      clause.Of(clause.FW1, clause.FW3),
		Description: "epoch windows claimed, but a window opens at the key's first request and lasts W",
		Detectors:   Detectors{Scenarios: []string{"FW-3-01"}},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return model.PRD{Limit: cfg.Limit, Window: cfg.Window} }}
		},
	}
}

func fwInsertRace() Fault {
	return Fault{
		Name:        FWInsertRace,
		Breaks:      clause.Of(clause.FW4),
		Description: "spec/004: UPDATE, then INSERT when no row was updated, without the unique_violation retry: a fresh key's racing first requests are each allowed",
		Detectors:   Detectors{Scenarios: []string{"FW-4-01"}, Race: true, Replicas: 1},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			ins := newFirstWrites(cfg.ClockOrWall())
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return txStore{Store: s, wrap: func(tx reference.Tx) reference.Tx { return unseenInsert{Tx: tx, ins: ins} }}
			}}
		},
	}
}

// unseenInsert reads a key as absent within raceWindow of its first write:
// the racing requests' UPDATE found no row and their INSERT's unique
// violation is swallowed.
type unseenInsert struct {
	reference.Tx
	ins *firstWrites
}

func (t unseenInsert) Bucket(ctx context.Context, id string) (model.State, error) {
	if t.ins.hidden(id) {
		return model.State{}, nil
	}
	return t.Tx.Bucket(ctx, id)
}

func (t unseenInsert) PutBucket(ctx context.Context, id string, st model.State) error {
	t.ins.wrote(id)
	return t.Tx.PutBucket(ctx, id, st)
}

func fwOffByOne() Fault {
	return Fault{
		Name:        FWOffByOne,
		Breaks:      clause.Of(clause.FW1),
		Description: "N+1 requests allowed per window",
		Detectors:   Detectors{Scenarios: []string{"FW-1-01"}},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := model.Epoch{Limit: cfg.Limit + 1, Window: cfg.Window}.Step(st, req, now)
				d.Limit = cfg.Limit
				return next, d
			})
		},
	}
}

// FWAnonymousShared keys every request without the key by one bucket.
const FWAnonymousShared Name = "fw-anonymous-shared"

func fwAnonymousShared() Fault {
	return Fault{
		Name:        FWAnonymousShared,
		Breaks:      clause.Of(clause.FW7),
		Description: "a request without the key header is keyed by one bucket shared by every client",
		Detectors:   Detectors{Scenarios: []string{"FW-7-01"}},
		Profile:     profile.FixedWindow,
		Wrap:        addressesShare("anonymous"),
	}
}
