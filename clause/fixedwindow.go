package clause

// fixed-window (profiles.md).
const (
	FW1 ID = "FW-1"
	FW2 ID = "FW-2"
	FW3 ID = "FW-3"
	FW4 ID = "FW-4"
	FW5 ID = "FW-5"
	FW6 ID = "FW-6"
	FW7 ID = "FW-7"
)

// fixedwindowClauses are the fixed-window's clauses.
var fixedwindowClauses = []Clause{
	{FW1, "fixed-window", profiles, "For one key, at most N allowed in each window."},
	{FW2, "fixed-window", profiles, "In any span of length W at most 2N (epoch) or 2N − 1 (first-request) allowed."},
	{FW3, "fixed-window", profiles, "The next window gives N fresh allowances; requests racing at the boundary get at most N."},
	{FW4, "fixed-window", profiles, "N+k concurrent requests on a fresh key get exactly N."},
	{FW5, "fixed-window", profiles, "Limit = N (never derived from Remaining); Remaining = N − allowed so far in the window; Reset = the window's end; Retry-After on a 429 = seconds to the window's end (±1)."},
	{FW6, "fixed-window", profiles, "Status 429 with LIMITED_BODY (spec/004: status only)."},
	{FW7, "fixed-window", profiles, "A request without the key is keyed by client address, or with anonymous-open always allowed."},
}
