package bound

import (
	"slices"
	"sort"
)

// byKey splits events into one slice per key, each sorted by send time
// (ties by receive time, then ID), keys in first-seen order.
func byKey(events []Event) [][]Event {
	idx := make(map[string]int)
	var groups [][]Event
	for _, e := range events {
		i, ok := idx[e.Key]
		if !ok {
			i = len(groups)
			idx[e.Key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], e)
	}
	for _, g := range groups {
		sortBySend(g)
	}
	return groups
}

func sortBySend(es []Event) {
	slices.SortFunc(es, func(a, b Event) int {
		switch {
		case a.Send != b.Send:
			return cmp64(a.Send, b.Send)
		case a.Recv != b.Recv:
			return cmp64(a.Recv, b.Recv)
		default:
			return a.ID - b.ID
		}
	})
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func allowedOnly(es []Event) []Event {
	out := make([]Event, 0, len(es))
	for _, e := range es {
		if e.Allowed {
			out = append(out, e)
		}
	}
	return out
}

// densest finds, in es (sorted by send), the largest set of events that all
// lie inside a span of length span for every placement: events j with
// Send_j >= Send_i and Recv_j <= Send_i + span, for the best i. It returns
// the size and the earliest i that reaches it. A Fenwick tree over receive
// ranks, filled from the latest send backwards, counts each i's set in
// O(log n).
func densest(es []Event, span int64) (best, at int) {
	n := len(es)
	if n == 0 {
		return 0, -1
	}
	recvs := make([]int64, n)
	for i, e := range es {
		recvs[i] = e.Recv
	}
	sorted := slices.Clone(recvs)
	slices.Sort(sorted)
	tree := make([]int32, n+1)
	at = -1
	for i := n - 1; i >= 0; i-- {
		r := sort.Search(n, func(k int) bool { return sorted[k] >= recvs[i] }) // 0-based rank
		for k := r + 1; k <= n; k += k & -k {
			tree[k]++
		}
		limit := es[i].Send + span
		upto := sort.Search(n, func(k int) bool { return sorted[k] > limit }) // ranks < upto have recv <= limit
		c := 0
		for k := upto; k > 0; k -= k & -k {
			c += int(tree[k])
		}
		if c >= best && c > 0 {
			best, at = c, i
		}
	}
	return best, at
}

// members lists the events of densest's set for start i, at most max.
func members(es []Event, i int, span int64, max int) []Event {
	limit := es[i].Send + span
	var out []Event
	for j := i; j < len(es) && es[j].Send <= limit && len(out) < max; j++ {
		if es[j].Recv <= limit {
			out = append(out, es[j])
		}
	}
	return out
}
