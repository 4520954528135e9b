package clause

// sliding-log (profiles.md).
const (
	SL1  ID = "SL-1"
	SL2  ID = "SL-2"
	SL3  ID = "SL-3"
	SL4  ID = "SL-4"
	SL5  ID = "SL-5"
	SL6  ID = "SL-6"
	SL7  ID = "SL-7"
	SL8  ID = "SL-8"
	SL9  ID = "SL-9"
	SL10 ID = "SL-10"
)

// slidinglogClauses are the sliding-log's clauses.
var slidinglogClauses = []Clause{
	{SL1, "sliding-log", profiles, "For one key, no window of length W holds more than N allowed requests."},
	{SL2, "sliding-log", profiles, "N+1 requests of one key sent within one second: exactly N allowed."},
	{SL3, "sliding-log", profiles, "N+k concurrent requests on a fresh key: exactly N allowed."},
	{SL4, "sliding-log", profiles, "A key whose allowed requests in the last W + 1 s number fewer than N is allowed. After a 429, a request sent once Retry-After + 1 s has passed is allowed."},
	{SL5, "sliding-log", profiles, "Requests refused with 429 do not move the time at which the key is allowed again."},
	{SL6, "sliding-log", profiles, "Status 429, Retry-After integer seconds in [1, W], body matching LIMITED_BODY; a retry value in the body equals Retry-After."},
	{SL7, "sliding-log", profiles, "Limit = N on every response; Remaining = N − allowed requests in the current window; Reset = t_oldest + W (±1 s)."},
	{SL8, "sliding-log", profiles, "Keys are independent; a request without the key's header is keyed by client address."},
	{SL9, "sliding-log", profiles, "Each tier enforces its own N and W; spending in one tier spends nothing in another."},
	{SL10, "sliding-log", profiles, "A bypass identity gets N + 5 requests allowed and spends nothing of a normal identity's quota."},
}
