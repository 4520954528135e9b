package clause

// penalties and the features of any profile (profiles.md).
const (
	PN1   ID = "PN-1"
	PN2   ID = "PN-2"
	PN3   ID = "PN-3"
	PN4   ID = "PN-4"
	PN5   ID = "PN-5"
	FAIL1 ID = "FAIL-1"
	FAIL2 ID = "FAIL-2"
	MI1   ID = "MI-1"
	PS1   ID = "PS-1"
	IETF1 ID = "IETF-1"
)

// featuresClauses are the clauses of the features any profile may claim.
var featuresClauses = []Clause{
	{PN1, "any", profiles, "From the violation until penalty_until, every request of the key gets 429 with penalty_active: true, penalty_until and Retry-After ≈ penalty_until − now."},
	{PN2, "any", profiles, "After penalty_until (+1 s) the key is served by the algorithm again."},
	{PN3, "any", profiles, "Successive violations move through the tiers in order; counts below the first tier give no penalty."},
	{PN4, "any", profiles, "Requests refused during a penalty neither spend quota nor count as violations."},
	{PN5, "any", profiles, "A violation count older than 24 h starts again at 1."},
	{FAIL1, "any", profiles, "While the store is down no request is allowed: 503 (or 429) with Retry-After, never 200; after it is back, quota spent before is still spent."},
	{FAIL2, "any", profiles, "While the store is down requests are allowed (200) and none gets a 5xx."},
	{MI1, "any", profiles, "With several instances on one store the profile's bounds hold over the requests to all instances together."},
	{PS1, "any", profiles, "Quota spent before the container is restarted is still spent after it."},
	{IETF1, "any", profiles, "RateLimit-Policy and RateLimit are valid structured-field lists; q and w match N and W; r follows Remaining and t follows Reset − now."},
}
