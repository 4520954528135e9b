package clause

// token-bucket (profiles.md).
const (
	TB1 ID = "TB-1"
	TB2 ID = "TB-2"
	TB3 ID = "TB-3"
	TB4 ID = "TB-4"
	TB5 ID = "TB-5"
	TB6 ID = "TB-6"
	TB7 ID = "TB-7"
	TB8 ID = "TB-8"
)

// tokenbucketClauses are the token-bucket's clauses.
var tokenbucketClauses = []Clause{
	{TB1, "token-bucket", profiles, "For one key, allowed requests in any interval [t1, t2] ≤ B + R·(t2 − t1) + 1."},
	{TB2, "token-bucket", profiles, "A fresh key gets B allowed in a row, the next one 429."},
	{TB3, "token-bucket", profiles, "A drained key that idles B/R + 1 s gets B allowed again; after idling k/R + 1 s (k < B) at least k."},
	{TB4, "token-bucket", profiles, "A client sending at 0.9·R for 10/R seconds after draining the bucket is never refused."},
	{TB5, "token-bucket", profiles, "B + k concurrent requests on a fresh key: exactly B."},
	{TB6, "token-bucket", profiles, "Retry-After integer seconds in [1, ⌈1/R⌉ + 1]; a request sent after it is allowed."},
	{TB7, "token-bucket", profiles, "Limit = B; Remaining = whole tokens left after this request; Reset unix seconds in [now, now + ⌈B/R⌉ + 1]."},
	{TB8, "token-bucket", profiles, "Keys have independent buckets; a request without the key is keyed by client address, never by one bucket shared by every keyless client."},
}
