package slidinglog

import (
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// MemoryQuota is fault.MemoryQuotaOf in the sliding-log profile.
func MemoryQuota() fault.Fault {
	return fault.MemoryQuotaOf(fault.SLMemoryQuota, profile.SlidingLog, "PS-1-02")
}

// ProcessCache is fault.ProcessCacheOf in the sliding-log profile.
func ProcessCache() fault.Fault {
	return fault.ProcessCacheOf(fault.SLProcessCache, profile.SlidingLog, "MI-1-03", "MI-1-04")
}
