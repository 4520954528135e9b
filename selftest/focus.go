package selftest

import (
	"slices"
	"strings"
	"sync"

	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/profile"
)

// WithFocus runs, of each fault's suite, only the scenarios it can be
// caught by: those it must fail (its detectors) and those no fault
// requires, whose teeth come from whichever fault fails them. A fault that
// only the race hunt must catch runs no suite when no such scenario is
// left. The reference still runs every scenario, and a scenario no fault
// fails is still toothless; what is lost is the incidental "also failed"
// of the matrix's caught column. `make test` runs the matrix so; the
// complete matrix (rlspec selftest) runs every scenario against every
// fault.
func WithFocus() Option {
	return func(c *config) error {
		c.focus = &focus{ran: map[profile.Name][]string{}, required: map[string]bool{}}
		for _, f := range faults.All() {
			for _, id := range f.Detectors.Scenarios {
				c.focus.required[id] = true
			}
		}
		return nil
	}
}

// focus is WithFocus' selection: the scenarios the reference's suite of
// each profile ran, and every fault's detectors.
type focus struct {
	mu       sync.Mutex
	ran      map[profile.Name][]string
	required map[string]bool
}

// record notes the scenarios of profile p's suite the reference ran.
func (f *focus) record(p profile.Name, r AcceptanceResult) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := slices.Concat(f.ran[p], r.PassedIDs, r.FailedIDs, r.SkippedIDs, r.NotClaimedIDs)
	slices.Sort(ids)
	f.ran[p] = slices.Compact(ids)
}

// tags is the tag expression that runs, of profile p's suite, the
// scenarios a fault with these detectors can be caught by; "" and run
// true without focus (the whole suite), run false when none is left.
func (f *focus) tags(p profile.Name, detectors []string) (expr string, run bool) {
	if f == nil {
		return "", true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var terms []string
	for _, id := range f.ran[p] {
		if !f.required[id] || slices.Contains(detectors, id) {
			// An outline's rows (AC9-01.1, …) share their outline's tag.
			base, _, _ := strings.Cut(id, ".")
			if t := "@id:" + base; !slices.Contains(terms, t) {
				terms = append(terms, t)
			}
		}
	}
	return strings.Join(terms, " or "), len(terms) > 0
}
