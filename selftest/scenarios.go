package selftest

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

// ScenarioTally is one scenario's outcomes over the reference runs: how
// often it passed, failed and was skipped, with each distinct reason for a
// skip and how often it was given.
type ScenarioTally struct {
	ID                      string
	Passed, Failed, Skipped int
	Reasons                 map[string]int
}

// Scenarios tallies every scenario over m's reference runs, by id.
func (m *Matrix) Scenarios() []ScenarioTally {
	by := map[string]*ScenarioTally{}
	get := func(id string) *ScenarioTally {
		if by[id] == nil {
			by[id] = &ScenarioTally{ID: id, Reasons: map[string]int{}}
		}
		return by[id]
	}
	for _, r := range m.Reference {
		a := r.Acceptance
		for _, id := range a.PassedIDs {
			get(id).Passed++
		}
		for _, id := range a.FailedIDs {
			get(id).Failed++
		}
		for _, id := range a.SkippedIDs {
			t := get(id)
			t.Skipped++
			t.Reasons[a.SkipReasons[id]]++
		}
	}
	out := make([]ScenarioTally, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// WriteScenarios prints the per-scenario table of the reference runs: the
// overload table (issue 27) when the matrix ran starved, and whenever the
// reference ran more than once. A scenario skipped in more than a tenth of
// its runs is marked: it needs to be made sturdier.
func (m *Matrix) WriteScenarios(w io.Writer) {
	n := len(m.Reference)
	if m.Overload != "" {
		fmt.Fprintf(w, "overload: %s\n", m.Overload)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tPASS\tSKIP\tFAIL\tNOTE")
	for _, t := range m.Scenarios() {
		var note []string
		if t.Skipped*10 > n {
			note = append(note, "skips in more than a tenth of its runs")
		}
		reasons := slices.Sorted(maps.Keys(t.Reasons))
		for _, r := range reasons {
			note = append(note, fmt.Sprintf("%d× %s", t.Reasons[r], oneLine(r)))
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%d/%d\t%d/%d\t%s\n", t.ID, t.Passed, n, t.Skipped, n, t.Failed, n, strings.Join(note, "; "))
	}
	tw.Flush()
}

// oneLine is s's first line, shortened for a table cell.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
