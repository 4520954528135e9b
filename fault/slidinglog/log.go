package slidinglog

import (
	"slices"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SameSecond is the fault SLSameSecond (its Name says what it breaks).
func SameSecond() fault.Fault {
	return fault.Fault{
		Name:        SLSameSecond,
		Breaks:      clause.Of(clause.SL2, clause.SL1),
		Description: "spec/002: UNIQUE(key, timestamp) + INSERT OR REPLACE with whole-second timestamps: requests in the same second merge into one entry",
		Seed:        "spec/002 schema `UNIQUE(key, timestamp)`, `record()`: `INSERT OR REPLACE … Math.floor(Date.now() / 1000)`",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-1-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.ModelFault(func(_ fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now.Truncate(time.Second))
			if d.Write {
				next.Log = model.EncodeLog(slices.Compact(model.DecodeLog(next.Log)))
			}
			return next, d
		}),
	}
}

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

// RefusedRecorded is the fault SLRefusedRecorded (its Name says what it breaks).
func RefusedRecorded() fault.Fault {
	return fault.Fault{
		Name:        SLRefusedRecorded,
		Breaks:      clause.Of(clause.SL5),
		Description: "refused requests are recorded in the log: each 429 extends the block",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-5-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.D.Allowed || s.Req.Cost == 0 {
				return
			}
			s.Next.Found = true
			s.Next.Log = model.EncodeLog(append(model.DecodeLog(s.St.Log), s.Now.UnixMilli()))
			s.Next.Reset = max(s.Next.Reset, s.Now.Unix()+s.D.RetryAfter)
			s.D.Write = true
		}),
	}
}
