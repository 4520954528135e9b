package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// CheckThenRecord is the fault SLCheckThenRecord (its Name says what it breaks).
func CheckThenRecord() fault.Fault {
	return fault.Fault{
		Name:        SLCheckThenRecord,
		Breaks:      clause.Of(clause.SL3, clause.SL1),
		Description: "spec/002: checkAndRecord() counts, then records in a separate statement: concurrent requests on one key oversell",
		Seed:        "spec/002 `checkAndRecord()`: `check()` then `record()`",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-3-01"}, Race: true, Replicas: 1},
		Profile:     profile.SlidingLog,
		Wrap:        fault.StaleBuckets,
	}
}
