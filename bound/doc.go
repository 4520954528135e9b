// Package bound checks a recorded history of exchanges against the bounds
// of the rate-limiting profiles (profiles.md): sliding-log's "at most N in
// any window of length W" (SL-1), fixed-window's "at most N per window"
// (FW-1, epoch-aligned or opened by the first request) and boundary burst
// (FW-2), sliding-log's "no over-blocking" (SL-4), token-bucket's
// arrival-curve bound (TB-1), the sliding-window counter's weighted bound
// (SWC-2) and the leaky bucket's output spacing (LB-1).
//
// The harness cannot see when the server decided: a request's decision time
// lies anywhere in [Send, Recv] of its exchange, and the server's clock may
// keep whole seconds. So every check reports a violation only when the
// bound fails for EVERY placement of the decision times inside those
// intervals, widened by a tolerance (1 s for whole-second clocks). A
// violation carries the requests and times that prove it; what the history
// cannot decide is never reported.
//
// Uncovered says which phases of a period W a set of spans left unprobed:
// a check that must meet every boundary of an unknown grid (SL-1-02) rests
// on none being left.
//
// The checks sort and sweep: O(n log n) in the number of exchanges.
package bound

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlspec/rlspec/clause"
)

// Event is one recorded exchange.
type Event struct {
	ID      int    // the caller's index of the exchange, for evidence
	Key     string // the client key the request was made for
	Send    int64  // unix nanoseconds when the request was sent (harness clock)
	Recv    int64  // unix nanoseconds when the response was received
	Allowed bool   // 2xx: the limiter let it through; false: refused (429)
}

// Violation is a bound that fails for every placement of decision times.
type Violation struct {
	Clause clause.ID
	Key    string
	Bound  string  // the bound, in words: "at most 10 allowed in any 3s"
	Events []Event // the requests that prove it, by send time
	Detail string  // why these requests prove it
}

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: key %s: %s: %s", v.Clause, v.Key, v.Bound, v.Detail)
	if len(v.Events) > 0 {
		t0 := v.Events[0].Send
		for _, e := range v.Events {
			fmt.Fprintf(&b, "\n  #%d allowed=%t sent +%s received +%s", e.ID, e.Allowed,
				time.Duration(e.Send-t0), time.Duration(e.Recv-t0))
		}
	}
	return b.String()
}

// DefaultTolerance is added for servers whose clocks keep whole seconds.
const DefaultTolerance = time.Second
