package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// NoIPFallback is the fault NoIPFallbackName (its Name says what it breaks).
func NoIPFallback() fault.Fault {
	return fault.Fault{
		Name:        NoIPFallbackName,
		Breaks:      clause.Of(clause.AC5, clause.FR2),
		Description: "a request without device_bucket is keyed by one global bucket shared by every client",
		Detectors:   fault.Detectors{Scenarios: []string{"AC5-01", "AC5-03"}},
		Wrap:        fault.AddressesShare("global"),
	}
}
