package swcounter

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RetryAfterShort is the fault SWCRetryAfterShort (its Name says what it breaks).
func RetryAfterShort() fault.Fault {
	return fault.Fault{
		Name:        SWCRetryAfterShort,
		Breaks:      clause.Of(clause.SWC5),
		Description: "Retry-After always 1 s: a client that waits for it is refused again",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-5-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.RetryAfterIs(func(int64) int64 { return 1 }),
	}
}

// ResetWindowStart is the fault SWCResetWindowStart (its Name says what it breaks).
func ResetWindowStart() fault.Fault {
	return fault.Fault{
		Name:        SWCResetWindowStart,
		Breaks:      clause.Of(clause.SWC6),
		Description: "Reset is the current grid window's start (the key of its row), not its end",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-6-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap: fault.EditStep(func(s *fault.Step) {
			w := s.WindowSeconds()
			s.D.Reset = s.Now.Unix() / w * w
		}),
	}
}

// KeyGridEpoch is the fault SWCKeyGridEpoch (its Name says what it breaks).
func KeyGridEpoch() fault.Fault {
	return fault.Fault{
		Name:        SWCKeyGridEpoch,
		Breaks:      clause.Of(clause.SWC6, clause.SWC1),
		Description: "key-grid windows claimed, but the counter's windows lie on the epoch's grid",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-6-01"}},
		Profile:     profile.SlidingWindowCounter,
		Align:       profile.AlignKeyGrid,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return model.WindowCounter{Limit: cfg.Limit, Window: cfg.Window}
		}),
	}
}

// LimitFromRemaining is the fault SWCLimitFromRemaining (its Name says what it breaks).
func LimitFromRemaining() fault.Fault {
	return fault.Fault{
		Name:        SWCLimitFromRemaining,
		Breaks:      clause.Of(clause.SWC6),
		Description: "spec/003 middleware: X-RateLimit-Limit = Remaining + 1 in front of the counter (not N)",
		Seed:        "spec/003 middleware line 871: `X-RateLimit-Limit` = `result.Remaining+1`, whatever algorithm is behind it",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-6-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.LimitFromRemaining,
	}
}
