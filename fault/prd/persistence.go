package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// MemoryQuota is fault.MemoryQuotaOf in the PRD.
func MemoryQuota() fault.Fault { return fault.MemoryQuotaOf(fault.MemoryQuota, "", "PS-1-01") }

// ProcessCache is fault.ProcessCacheOf in the PRD, which the race hunter
// must catch too, against several servers on one store.
func ProcessCache() fault.Fault {
	f := fault.ProcessCacheOf(fault.ProcessCache, "", "MI-1-01", "MI-1-02")
	f.Breaks = clause.Of(clause.MI1, clause.AC7, clause.FR4)
	f.Detectors.Race = true
	return f
}
