package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// FlagIgnored is the fault FlagIgnoredName (its Name says what it breaks).
func FlagIgnored() fault.Fault {
	return fault.Fault{
		Name:        FlagIgnoredName,
		Breaks:      clause.Of(clause.AC8, clause.FR8),
		Description: "BMTC_RATE_LIMIT_ENABLED=false is ignored: the limit is enforced anyway",
		Detectors:   fault.Detectors{Scenarios: []string{"AC8-02"}},
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			cfg.Enabled = true
			return cfg.Model()
		}),
	}
}
