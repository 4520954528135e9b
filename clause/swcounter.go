package clause

// sliding-window-counter (profiles.md).
const (
	SWC1 ID = "SWC-1"
	SWC2 ID = "SWC-2"
	SWC3 ID = "SWC-3"
	SWC4 ID = "SWC-4"
	SWC5 ID = "SWC-5"
	SWC6 ID = "SWC-6"
	SWC7 ID = "SWC-7"
)

// swcounterClauses are the sliding-window-counter's clauses.
var swcounterClauses = []Clause{
	{SWC1, "sliding-window-counter", profiles, "At most N allowed in any one grid window."},
	{SWC2, "sliding-window-counter", profiles, "No allowed request finds e ≥ N + 1 for every placement of the decision times."},
	{SWC3, "sliding-window-counter", profiles, "A request that finds e ≤ N − 2 for every placement is allowed."},
	{SWC4, "sliding-window-counter", profiles, "N + k concurrent requests on a fresh key: exactly N."},
	{SWC5, "sliding-window-counter", profiles, "LIMITED_STATUS, LIMITED_BODY; a Retry-After (where sent) is in [1, W] and a request sent after it is allowed."},
	{SWC6, "sliding-window-counter", profiles, "Limit = N; Remaining = N − ⌈e⌉ (±1); Reset = the end of the current grid window or the instant e falls below N."},
	{SWC7, "sliding-window-counter", profiles, "Keys are independent; a request without the key's header is keyed by client address (as SL-8)."},
}
