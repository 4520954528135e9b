package histcheck

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// stateSeed seeds the hashes of model states.
var stateSeed = maphash.MakeSeed()

// hashed is a model state with its hash.
type hashed[S comparable] struct {
	h uint64
	s S
}

// setSpec is a nondeterministic sequential model with comparable states
// S: its initial state, its step (the states an op may lead to from one
// state) and, optionally, an order under which a state admits every future
// another admits. A porcupine state is the set of states the key may be in
// (porcupine.NondeterministicModel.ToModel's power set construction), kept
// sorted by hash and without duplicates, so that merging a step's next
// states and comparing two sets take n log n, not n² (a sliding log's
// placements make sets of thousands). Two equal sets whose distinct states
// collide in hash may compare unequal: porcupine then only explores a state
// it could have skipped.
//
// With an order, a state is dropped from a set holding one that subsumes
// it (order.subsumes): its hash must be that of the part two such states
// share (order.hash), so that they meet in a run of equal hashes.
type setSpec[S comparable] struct {
	init  S
	step  func(s S, input, output any) []S
	order *stateOrder[S]
}

func (sp *setSpec[S]) one(s S) hashed[S] {
	if sp.order != nil {
		return hashed[S]{sp.order.hash(s), s}
	}
	return hashed[S]{maphash.Comparable(stateSeed, s), s}
}

func (sp *setSpec[S]) subsumes(a, b S) bool {
	if sp.order != nil {
		return sp.order.subsumes(a, b)
	}
	return a == b
}

// next is the set of states op (input, output) may lead set to; empty when
// no state of set explains it.
func (sp *setSpec[S]) next(set []hashed[S], input, output any) []hashed[S] {
	var next []hashed[S]
	for _, s := range set {
		for _, n := range sp.step(s.s, input, output) {
			next = append(next, sp.one(n))
		}
	}
	return dedupe(next, sp.subsumes)
}

// model is sp as a porcupine model of keys partitioned by bucket, its
// states described by describe.
func (sp *setSpec[S]) model(describe func(S) string) porcupine.Model {
	return porcupine.Model{
		Partition: partitionByBucket,
		Init:      func() any { return []hashed[S]{sp.one(sp.init)} },
		Step: func(state, input, output any) (bool, any) {
			next := sp.next(state.([]hashed[S]), input, output)
			return len(next) > 0, next
		},
		Equal: func(a, b any) bool { return slices.Equal(a.([]hashed[S]), b.([]hashed[S])) },
		Hash: func(state any) uint64 {
			var h uint64
			for _, s := range state.([]hashed[S]) {
				h ^= s.h
			}
			return h
		},
		DescribeOperation: describeOp,
		DescribeState: func(state any) string {
			var ds []string
			for _, s := range state.([]hashed[S]) {
				ds = append(ds, describe(s.s))
			}
			return "{" + strings.Join(ds, ", ") + "}"
		},
		DescribeOperationMetadata: func(info any) string { return shortBucket(info.(string)) },
	}
}

// stateOrder says when a state admits every future another admits.
type stateOrder[S comparable] struct {
	hash     func(S) uint64    // equal for two states one of which may subsume the other
	subsumes func(a, b S) bool // a admits every history b does
}

// dedupe sorts ss by hash (stably: equal hashes keep their order) and drops
// the states another subsumes (repeated ones among them), keeping the
// first of equal ones.
func dedupe[S comparable](ss []hashed[S], subsumes func(a, b S) bool) []hashed[S] {
	slices.SortStableFunc(ss, func(a, b hashed[S]) int { return cmp.Compare(a.h, b.h) })
	out := ss[:0]
	run := 0 // start of the run of equal hashes in out
next:
	for _, s := range ss {
		if len(out) > 0 && out[len(out)-1].h != s.h {
			run = len(out)
		}
		for i := run; i < len(out); i++ {
			switch {
			case subsumes(out[i].s, s.s):
				continue next
			case subsumes(s.s, out[i].s):
				out[i] = s
				continue next
			}
		}
		out = append(out, s)
	}
	return out
}
