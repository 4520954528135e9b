package fault

import (
	"github.com/rlspec/rlspec/clause"
)

// SLCheckThenRecord is spec/002's checkAndRecord: check() counts the
// entries, then record() inserts, in separate statements with no
// transaction around them, so concurrent requests all see the same count.
const SLCheckThenRecord Name = "sl-check-then-record"

func slCheckThenRecord() Fault {
	return Fault{
		Name:        SLCheckThenRecord,
		Breaks:      clause.Of(clause.SL3, clause.SL1),
		Description: "spec/002: checkAndRecord() counts, then records in a separate statement: concurrent requests on one key oversell",
		Detectors:   Detectors{Scenarios: []string{"SL-3-01"}, Race: true, Replicas: 1},
		Profile:     profile.SlidingLog,
		Wrap:        staleBuckets,
	}
}
