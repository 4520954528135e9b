package tokenbucket

import (
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// MemoryQuota is fault.MemoryQuotaOf in the token-bucket profile.
func MemoryQuota() fault.Fault {
	return fault.MemoryQuotaOf(fault.TBMemoryQuota, profile.TokenBucket, "PS-1-04")
}

// ProcessCache is fault.ProcessCacheOf in the token-bucket profile.
func ProcessCache() fault.Fault {
	return fault.ProcessCacheOf(fault.TBProcessCache, profile.TokenBucket, "MI-1-07", "MI-1-08")
}
