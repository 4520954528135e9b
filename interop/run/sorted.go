package main

import (
	"iter"
	"maps"
	"slices"
)

// sortedResults yields m's entries by id.
func sortedResults(m map[string]Result) iter.Seq2[string, Result] {
	return func(yield func(string, Result) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
