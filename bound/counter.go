package bound

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/rlspec/rlspec/clause"
)

// WindowCounter is SWC-2: no allowed request finds the estimate
// e = p·(1 − (t − s)/W) + c at N + 1 or more for every placement of the
// decision times (windows of W on the epoch's grid; t the request's
// decision, s its window's start, p the allowed decisions in the previous
// window, c those of its own window before t).
//
// Each decision lies in [Send − tol, Recv + tol]. For an allowed request j
// and a placement of t in that interval, the fewest others counted are
// those whose whole interval lies inside the previous window (p) or inside
// j's window and ends before t (c): placing every other decision as late
// or as far out of the two windows as it may is the placement most in j's
// favour, and e is then smallest. Within j's window c(t) only rises and
// the weighted term only falls, so the smallest e is at t = b (the
// interval's end in the window) or at the end of another's interval
// inside [a, b]: a range minimum over the window's sorted interval ends,
// kept in a segment tree. O(n log n). A violation is reported only when
// even that smallest e is ≥ N + 1; one per key.
func WindowCounter(events []Event, n int, w, tol time.Duration) []Violation {
	var out []Violation
	W, T := int64(w), int64(tol)
	for _, es := range byKey(events) {
		if v, ok := counterKey(allowedOnly(es), n, W, T); ok {
			v.Clause = clause.SWC2
			v.Bound = fmt.Sprintf("no allowed request finds p·(1 − (t − s)/W) + c ≥ %d + 1 (N = %d, W = %s)", n, n, w)
			out = append(out, v)
		}
	}
	return out
}

// counterWindow is one grid window's allowed requests certainly inside it:
// their interval ends (Recv + tol) ascending, with the segment tree of
// c·W − p·(end − s) at each end.
type counterWindow struct {
	ends []int64
	evs  []Event
	tree []int64 // min segment tree over the ends' values, size 2·len
}

func counterKey(es []Event, n int, W, T int64) (Violation, bool) {
	wins := map[int64]*counterWindow{}
	for _, e := range es {
		k := floorDiv(e.Send-T, W)
		if floorDiv(e.Recv+T, W) != k {
			continue // may fall in either window: counted in none
		}
		cw := wins[k]
		if cw == nil {
			cw = &counterWindow{}
			wins[k] = cw
		}
		cw.evs = append(cw.evs, e)
	}
	for k, cw := range wins {
		slices.SortFunc(cw.evs, func(a, b Event) int { return cmp64(a.Recv, b.Recv) })
		cw.ends = make([]int64, len(cw.evs))
		for i, e := range cw.evs {
			cw.ends[i] = e.Recv + T
		}
		p := int64(0)
		if prev := wins[k-1]; prev != nil {
			p = int64(len(prev.evs))
		}
		cw.build(k*W, p, W)
	}
	if v, ok := counterGroups(wins, n, W, T); ok {
		return v, true
	}
	for _, j := range es {
		lo, hi := j.Send-T, j.Recv+T
		smallest := int64(-1 << 62)
		first := true
		for k := floorDiv(lo, W); k <= floorDiv(hi, W); k++ {
			s := k * W
			a, b := max(lo, s), min(hi, s+W-1)
			p := int64(0)
			if prev := wins[k-1]; prev != nil {
				p = int64(len(prev.evs))
			}
			eW := p*W + wins[k].least(a, b, s, p, W) // e·W at its smallest in this window
			if first || eW < smallest {
				smallest, first = eW, false
			}
		}
		if smallest >= int64(n+1)*W {
			ev := []Event{j}
			for _, k := range []int64{floorDiv(j.Send-T, W) - 1, floorDiv(j.Send-T, W)} {
				if cw := wins[k]; cw != nil {
					for _, e := range cw.evs {
						if e.ID != j.ID && e.Recv+T < hi {
							ev = append(ev, e)
						}
					}
				}
			}
			sortBySend(ev)
			return Violation{Key: j.Key, Events: ev,
				Detail: fmt.Sprintf("request #%d was allowed although, wherever its decision and the others' lie (±%s), the estimate was at least %.2f", j.ID, time.Duration(T), float64(smallest)/float64(W))}, true
		}
	}
	return Violation{}, false
}

// counterGroups finds the violation no single request shows: of the
// allowed requests certainly inside one window, the first j + 1 by the end
// of their intervals (d_j the latest of those ends), whichever is decided
// last counts j others in its window and lies at or before d_j, so its
// estimate is at least p·(1 − (d_j − s)/W) + j — whatever the order and
// times of the decisions. N − 1 requests sent at once early in a window
// after N were allowed are each allowed at an estimate below N + 1 in some
// placement, but not all of them in any one.
func counterGroups(wins map[int64]*counterWindow, n int, W, T int64) (Violation, bool) {
	for k, cw := range wins {
		s, p := k*W, int64(0)
		if prev := wins[k-1]; prev != nil {
			p = int64(len(prev.evs))
		}
		for j, d := range cw.ends {
			eW := p*(s+W-d) + int64(j)*W
			if eW < int64(n+1)*W {
				continue
			}
			ev := slices.Clone(cw.evs[:j+1])
			if prev := wins[k-1]; prev != nil {
				ev = append(ev, prev.evs...)
			}
			sortBySend(ev)
			return Violation{Key: cw.evs[j].Key, Events: ev,
				Detail: fmt.Sprintf("%d requests were allowed in one window with %d allowed in the one before, and whichever of them was decided last found the estimate at least %.2f, wherever the decisions lie (±%s)", j+1, p, float64(eW)/float64(W), time.Duration(T))}, true
		}
	}
	return Violation{}, false
}

// build fills the tree: at the m-th end, c = the ends before it (strictly)
// and the value c·W − p·(end − s).
func (cw *counterWindow) build(s, p, W int64) {
	m := len(cw.ends)
	cw.tree = make([]int64, 2*m)
	for i, r := range cw.ends {
		c := int64(sort.Search(i+1, func(x int) bool { return cw.ends[x] >= r })) // ties: the first of them
		cw.tree[m+i] = c*W - p*(r-s)
	}
	for i := m - 1; i >= 1; i-- {
		cw.tree[i] = min(cw.tree[2*i], cw.tree[2*i+1])
	}
}

// least is the smallest c(t)·W − p·(t − s) for t in [a, b]: at b, or at an
// end inside [a, b] (c counts the ends before t, so at an end the value is
// the least of the stretch that it closes). A nil window holds no
// request: c = 0.
func (cw *counterWindow) least(a, b, s, p, W int64) int64 {
	if cw == nil {
		return -p * (b - s)
	}
	cb := int64(sort.Search(len(cw.ends), func(x int) bool { return cw.ends[x] >= b }))
	best := cb*W - p*(b-s)
	l := sort.Search(len(cw.ends), func(x int) bool { return cw.ends[x] >= a })
	r := sort.Search(len(cw.ends), func(x int) bool { return cw.ends[x] > b }) // exclusive
	m := len(cw.ends)
	for l, r = l+m, r+m; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			best = min(best, cw.tree[l])
			l++
		}
		if r&1 == 1 {
			r--
			best = min(best, cw.tree[r])
		}
	}
	return best
}
