package fault

// The names of the faults several designs share (the quota kept in process
// memory, MemoryQuotaOf; a per-process cache, ProcessCacheOf). A design's
// own faults declare their names in its package (fault/<design>/names.go).
// Keep names stable: self-test reports and reproductions use them.

// MemoryQuota keeps the quota in process memory only; SLMemoryQuota,
// FWMemoryQuota and TBMemoryQuota do the same in the other profiles.
const (
	MemoryQuota   Name = "memory-quota"
	SLMemoryQuota Name = "sl-memory-quota"
	FWMemoryQuota Name = "fw-memory-quota"
	TBMemoryQuota Name = "tb-memory-quota"
)

// ProcessCache keeps bucket state in a per-process cache; SLProcessCache,
// FWProcessCache and TBProcessCache do the same in the other profiles.
const (
	ProcessCache   Name = "process-cache"
	SLProcessCache Name = "sl-process-cache"
	FWProcessCache Name = "fw-process-cache"
	TBProcessCache Name = "tb-process-cache"
)
