package fault

import (
	"context"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// TierSharedCount stores every tier's count under the key alone (spec/002's
// getRateLimitKey without the category): each tier applies its own limit to
// one shared log, so spending in one tier spends in all.
const TierSharedCount Name = "tier-shared-count"

func tierSharedCount() Fault {
	return Fault{
		Name:        TierSharedCount,
		Breaks:      clause.Of(clause.SL9),
		Description: "tiers share one count per key: spending in one spends in the others",
		Detectors:   Detectors{Scenarios: []string{"SL-9-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return txStore{Store: s, wrap: func(tx reference.Tx) reference.Tx { return untiered{Tx: tx} }}
			}}
		},
	}
}

// untiered drops a tier's prefix from bucket ids.
type untiered struct{ reference.Tx }

func untier(id string) string {
	if rest, ok := strings.CutPrefix(id, fakeserver.TierPrefix); ok {
		if _, key, found := strings.Cut(rest, "|"); found {
			return key
		}
	}
	return id
}

func (t untiered) Bucket(ctx context.Context, id string) (model.State, error) {
	return t.Tx.Bucket(ctx, untier(id))
}

func (t untiered) PutBucket(ctx context.Context, id string, st model.State) error {
	return t.Tx.PutBucket(ctx, untier(id), st)
}
