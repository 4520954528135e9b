package bound

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/rlspec/rlspec/clause"
)

// TokenBucket is TB-1: for one key, the allowed requests in any interval
// [t1, t2] number at most burst + rate·(t2 − t1) + 1. Every decision of a
// set S of allowed requests lies in [min Send, max Recv] whatever the
// placement, so S is a violation when |S| > burst + rate·(max Recv − min
// Send + tol) + 1. The sweep visits receive times in order and keeps, for
// every candidate first request i, count_i + rate·Send_i in a segment tree
// with range add and range max, so the best S ending at each receive time
// is found in O(log n). One violation per key.
func TokenBucket(events []Event, burst int, rate float64, tol time.Duration) []Violation {
	var out []Violation
	slack := float64(burst) + 1 + rate*tol.Seconds()
	for _, es := range byKey(events) {
		al := allowedOnly(es)
		if v, ok := arrival(al, rate, slack); ok {
			v.Clause = clause.TB1
			v.Bound = fmt.Sprintf("at most %d + %g/s·Δt + 1 allowed in any interval of length Δt", burst, rate)
			out = append(out, v)
		}
	}
	return out
}

// arrival looks for the first set that breaks the bound in es (allowed
// events of one key, sorted by send).
func arrival(es []Event, rate, slack float64) (Violation, bool) {
	n := len(es)
	if n == 0 {
		return Violation{}, false
	}
	t0 := es[0].Send
	sec := func(ns int64) float64 { return float64(ns-t0) / 1e9 }
	init := make([]float64, n)
	for i, e := range es {
		init[i] = rate * sec(e.Send)
	}
	tree := newMaxTree(init)
	byRecv := make([]int, n)
	for i := range byRecv {
		byRecv[i] = i
	}
	slices.SortStableFunc(byRecv, func(a, b int) int { return cmp64(es[a].Recv, es[b].Recv) })
	for _, j := range byRecv {
		// the last first-request candidate: sent no later than j
		last := sort.Search(n, func(k int) bool { return es[k].Send > es[j].Send }) - 1
		tree.add(0, last, 1) // j joins every set whose first request was sent no later than j
		best, i := tree.max(0, last)
		T := sec(es[j].Recv)
		if excess := best - rate*T; excess > slack+1e-9 {
			count := int(math.Round(best - init[i]))
			span := time.Duration(es[j].Recv - es[i].Send)
			var ev []Event
			for k := i; k < n && es[k].Send <= es[j].Recv; k++ {
				if es[k].Recv <= es[j].Recv {
					ev = append(ev, es[k])
				}
			}
			return Violation{Key: es[i].Key, Events: ev,
				Detail: fmt.Sprintf("%d allowed requests were sent and answered within %s, where at most %.2f fit (burst + rate·(span + tolerance) + 1)", count, span, slack+rate*span.Seconds()),
			}, true
		}
	}
	return Violation{}, false
}

// maxTree is a segment tree over float64 values with range add and range
// max (with the argmax).
type maxTree struct {
	n    int
	mx   []float64
	arg  []int
	lazy []float64
}

func newMaxTree(vals []float64) *maxTree {
	t := &maxTree{n: len(vals), mx: make([]float64, 4*len(vals)), arg: make([]int, 4*len(vals)), lazy: make([]float64, 4*len(vals))}
	t.build(1, 0, t.n-1, vals)
	return t
}

func (t *maxTree) build(node, lo, hi int, vals []float64) {
	if lo == hi {
		t.mx[node], t.arg[node] = vals[lo], lo
		return
	}
	mid := (lo + hi) / 2
	t.build(2*node, lo, mid, vals)
	t.build(2*node+1, mid+1, hi, vals)
	t.pull(node)
}

func (t *maxTree) pull(node int) {
	l, r := 2*node, 2*node+1
	if t.mx[l] >= t.mx[r] {
		t.mx[node], t.arg[node] = t.mx[l]+t.lazy[node], t.arg[l]
	} else {
		t.mx[node], t.arg[node] = t.mx[r]+t.lazy[node], t.arg[r]
	}
}

// add adds v to every value in [l, r].
func (t *maxTree) add(l, r int, v float64) { t.addAt(1, 0, t.n-1, l, r, v) }

func (t *maxTree) addAt(node, lo, hi, l, r int, v float64) {
	if r < lo || hi < l {
		return
	}
	if l <= lo && hi <= r {
		t.mx[node] += v
		t.lazy[node] += v
		return
	}
	mid := (lo + hi) / 2
	t.addAt(2*node, lo, mid, l, r, v)
	t.addAt(2*node+1, mid+1, hi, l, r, v)
	t.pull(node)
}

// max is the largest value in [l, r] and its index.
func (t *maxTree) max(l, r int) (float64, int) { return t.maxAt(1, 0, t.n-1, l, r) }

func (t *maxTree) maxAt(node, lo, hi, l, r int) (float64, int) {
	if r < lo || hi < l {
		return math.Inf(-1), -1
	}
	if l <= lo && hi <= r {
		return t.mx[node], t.arg[node]
	}
	mid := (lo + hi) / 2
	a, ai := t.maxAt(2*node, lo, mid, l, r)
	b, bi := t.maxAt(2*node+1, mid+1, hi, l, r)
	if b > a {
		a, ai = b, bi
	}
	return a + t.lazy[node], ai
}
