package clause

import "slices"

const (
	spec001  = "spec/001"
	contract = "target-contract.md"
	profiles = "profiles.md"
)

// registry is the one table of clauses, one file per design (clause/<design>.go)
// and one for the features of any profile; never written after
// initialisation.
var registry = slices.Concat(prdClauses, slidinglogClauses, fixedwindowClauses, tokenbucketClauses, swcounterClauses, leakybucketClauses, featuresClauses)
