package fixedwindow

import (
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// MemoryQuota is fault.MemoryQuotaOf in the fixed-window profile.
func MemoryQuota() fault.Fault {
	return fault.MemoryQuotaOf(fault.FWMemoryQuota, profile.FixedWindow, "PS-1-03")
}

// ProcessCache is fault.ProcessCacheOf in the fixed-window profile.
func ProcessCache() fault.Fault {
	return fault.ProcessCacheOf(fault.FWProcessCache, profile.FixedWindow, "MI-1-05", "MI-1-06")
}
