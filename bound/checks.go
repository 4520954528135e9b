package bound

import (
	"fmt"
	"sort"
	"time"

	"github.com/rlspec/rlspec/clause"
)

// SlidingLog is SL-1: for one key, no window of length w holds more than n
// allowed requests. n+1 allowed requests whose exchanges all fall within
// w − tol are a violation for every placement. One violation per key.
func SlidingLog(events []Event, n int, w, tol time.Duration) []Violation {
	span := int64(w - tol)
	var out []Violation
	for _, es := range byKey(events) {
		al := allowedOnly(es)
		c, i := densest(al, span)
		if c > n {
			out = append(out, Violation{
				Clause: clause.SL1, Key: al[i].Key,
				Bound:  fmt.Sprintf("at most %d allowed in any %s", n, w),
				Events: members(al, i, span, n+1),
				Detail: fmt.Sprintf("%d allowed requests were sent and answered within %s (the window less %s for the server's clock), so every placement of their decisions puts them in one window", c, w-tol, tol),
			})
		}
	}
	return out
}

// Burst measures FW-2: the largest number of allowed requests of one key
// that certainly fell within one span of length w (measured with the
// tolerance taken off), and reports a violation where it exceeds most
// (2N for epoch windows, 2N − 1 for windows opened by the first request).
// largest is the largest burst over all keys, reported beside the verdict.
func Burst(events []Event, most int, w, tol time.Duration) (largest int, vs []Violation) {
	span := int64(w - tol)
	for _, es := range byKey(events) {
		al := allowedOnly(es)
		c, i := densest(al, span)
		largest = max(largest, c)
		if c > most {
			vs = append(vs, Violation{
				Clause: clause.FW2, Key: al[i].Key,
				Bound:  fmt.Sprintf("at most %d allowed in any span of %s", most, w),
				Events: members(al, i, span, most+1),
				Detail: fmt.Sprintf("%d allowed requests fell within %s for every placement of their decisions", c, w-tol),
			})
		}
	}
	return largest, vs
}

// EpochWindows is FW-1 with windows aligned to the epoch: window k is
// [kW, (k+1)W) in unix time. A request counts in window k for certain when
// [Send − tol, Recv + tol] lies inside it; more than n such allowed
// requests in one window are a violation.
func EpochWindows(events []Event, n int, w, tol time.Duration) []Violation {
	W, t := int64(w), int64(tol)
	var out []Violation
	for _, es := range byKey(events) {
		inWindow := map[int64][]Event{}
		var order []int64
		for _, e := range es {
			if !e.Allowed {
				continue
			}
			k, k2 := floorDiv(e.Send-t, W), floorDiv(e.Recv+t, W)
			if k != k2 {
				continue // may have been decided in either window
			}
			if _, ok := inWindow[k]; !ok {
				order = append(order, k)
			}
			inWindow[k] = append(inWindow[k], e)
		}
		for _, k := range order {
			if got := inWindow[k]; len(got) > n {
				start := time.Unix(0, k*W).UTC()
				out = append(out, Violation{
					Clause: clause.FW1, Key: got[0].Key,
					Bound:  fmt.Sprintf("at most %d allowed per epoch-aligned window of %s", n, w),
					Events: got[:n+1],
					Detail: fmt.Sprintf("%d allowed requests were sent and answered (±%s) inside the window starting %s", len(got), tol, start.Format(time.RFC3339)),
				})
				break
			}
		}
	}
	return out
}

// FirstWindow is FW-1 for windows opened by a key's first request, on a
// history that starts with the key's first-ever request: the first window
// opens no earlier than the earliest send and lasts w, so allowed requests
// answered before that send + w − tol are certainly in it; more than n are a
// violation. Later windows open at a decision the harness cannot see; Burst
// bounds them (2N − 1).
func FirstWindow(events []Event, n int, w, tol time.Duration) []Violation {
	var out []Violation
	for _, es := range byKey(events) {
		limit := es[0].Send + int64(w-tol)
		var in []Event
		for _, e := range es {
			if e.Allowed && e.Recv <= limit {
				in = append(in, e)
			}
		}
		if len(in) > n {
			out = append(out, Violation{
				Clause: clause.FW1, Key: es[0].Key,
				Bound:  fmt.Sprintf("at most %d allowed in the window of %s the key's first request opens", n, w),
				Events: in[:n+1],
				Detail: fmt.Sprintf("%d allowed requests were answered within %s of the key's first request", len(in), w-tol),
			})
		}
	}
	return out
}

// OverBlocking is SL-4: a refused request is a violation when, for every
// placement, fewer than n allowed requests of its key lie in the window of
// length w + tol before its decision. The most that could lie there are
// the allowed requests sent before it was answered and answered after it
// was sent less w + tol; when even those are fewer than n, the refusal is
// certainly wrong. One violation per key.
func OverBlocking(events []Event, n int, w, tol time.Duration) []Violation {
	reach := int64(w + tol)
	var out []Violation
	for _, es := range byKey(events) {
		var sends, recvs []int64
		for _, e := range es {
			if e.Allowed {
				sends, recvs = append(sends, e.Send), append(recvs, e.Recv)
			}
		}
		sort.Slice(recvs, func(i, j int) bool { return recvs[i] < recvs[j] }) // sends are sorted already
		for _, q := range es {
			if q.Allowed {
				continue
			}
			before := sort.Search(len(sends), func(i int) bool { return sends[i] > q.Recv })
			gone := sort.Search(len(recvs), func(i int) bool { return recvs[i] >= q.Send-reach })
			if most := before - gone; most < n {
				out = append(out, Violation{
					Clause: clause.SL4, Key: q.Key,
					Bound:  fmt.Sprintf("a key with fewer than %d allowed requests in the last %s is allowed", n, w+tol),
					Events: []Event{q},
					Detail: fmt.Sprintf("request #%d was refused though at most %d allowed requests of its key could lie in the %s before it", q.ID, most, w+tol),
				})
				break
			}
		}
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
