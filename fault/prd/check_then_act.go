package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// CheckThenAct is the fault CheckThenActName (its Name says what it breaks).
func CheckThenAct() fault.Fault {
	return fault.Fault{
		Name:        CheckThenActName,
		Breaks:      clause.Of(clause.AC7, clause.FR4),
		Description: "reads the bucket before the transaction that writes the absolute result: concurrent requests oversell",
		Detectors:   fault.Detectors{Scenarios: []string{"AC7-01", "AC7-02"}, Race: true, Replicas: 1},
		Wrap:        fault.StaleBuckets,
	}
}
