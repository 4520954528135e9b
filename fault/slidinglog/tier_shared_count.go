package slidinglog

import (
	"context"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// TierSharedCount is the fault TierSharedCountName (its Name says what it breaks).
func TierSharedCount() fault.Fault {
	return fault.Fault{
		Name:        TierSharedCountName,
		Breaks:      clause.Of(clause.SL9),
		Description: "tiers share one count per key: spending in one spends in the others",
		Seed:        "spec/002 `getRateLimitKey()` without the category: tiers share one count",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-9-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return untiered{Tx: tx} })
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
