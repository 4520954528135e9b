package clause

// leaky-bucket (profiles.md).
const (
	LB1 ID = "LB-1"
	LB2 ID = "LB-2"
	LB3 ID = "LB-3"
	LB4 ID = "LB-4"
	LB5 ID = "LB-5"
)

// leakybucketClauses are the leaky-bucket's clauses.
var leakybucketClauses = []Clause{
	{LB1, "leaky-bucket", profiles, "For one key, allowed responses leave no faster than R: over any span of their decision times [t1, t2], count ≤ 1 + D + R·(t2 − t1) (+1 tolerance)."},
	{LB2, "leaky-bucket", profiles, "B + 1 + k concurrent requests on an idle key: k refused, each within 1 s of being sent; B + 1 allowed."},
	{LB3, "leaky-bucket", profiles, "On an idle key, the i-th of a burst of queued requests is answered within i/R + 1 s of its send."},
	{LB4, "leaky-bucket", profiles, "One key's queue delays no other key's requests."},
	{LB5, "leaky-bucket", profiles, "LIMITED_STATUS, LIMITED_BODY, Retry-After where sent."},
}
