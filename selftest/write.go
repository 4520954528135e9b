package selftest

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlspec/rlspec/profile"
)

// Write prints the matrix: the reference runs, then fault × clause with
// each detector's verdict (caught / missed / not run) and the row's verdict,
// then a one-line summary.
func (m *Matrix) Write(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REFERENCE\tRUN\tACCEPTANCE\tRACE\tVERDICT")
	for _, r := range m.Reference {
		verdict := "PASS"
		if !r.OK() {
			verdict = "FAIL"
		}
		fmt.Fprintf(tw, "reference\t%d/%d\t%s\t%s\t%s\n", r.N, len(m.Reference), refAcceptance(r.Acceptance), refRace(r.Race, r.raceChecks), verdict)
	}
	tw.Flush()
	if m.Overload != "" || len(m.Reference) > 1 {
		fmt.Fprintln(w)
		m.WriteScenarios(w)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tCLAUSE\tACCEPTANCE\tRACE\tVERDICT")
	for _, r := range m.Rows {
		verdict := "CAUGHT"
		switch {
		case !r.Caught():
			verdict = "SURVIVED"
		case !r.OK():
			verdict = "MISSED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Fault, r.Clause, rowAcceptance(r), rowRace(r), verdict)
	}
	tw.Flush()
	if slices.ContainsFunc(m.Rows, func(r Row) bool { return r.Runs > 0 }) {
		fmt.Fprintln(w)
		m.WriteDetection(w)
	}
	m.writeSuiteTime(w)
	for _, r := range m.Rows {
		if len(r.Missed) > 0 {
			fmt.Fprintf(w, "missed: %s (%s): required scenario(s) passed: %s\n", r.Fault, r.Description, strings.Join(r.Missed, " "))
		}
		if r.Expectation.Race && r.Race.Ran && !r.Race.Found {
			fmt.Fprintf(w, "missed: %s (%s): the race hunt found nothing in %d workloads\n", r.Fault, r.Description, r.Race.Checks)
		}
	}
	if m.Complete() && len(m.Reference) > 0 {
		if t := m.Toothless(); len(t) > 0 {
			fmt.Fprintf(w, "toothless: %d scenario(s) fail against no fault, so nothing shows they can fail: %s\n", len(t), strings.Join(t, " "))
		} else {
			fmt.Fprintf(w, "every scenario fails against at least one fault (%d/%d)\n", len(m.Reference[0].Acceptance.PassedIDs), len(m.Reference[0].Acceptance.PassedIDs))
		}
	}
	for _, r := range m.Reference {
		for _, id := range r.Acceptance.FailedIDs {
			fmt.Fprintf(w, "reference run %d: failed %s: %s\n", r.N, id, indented(orNone(r.Acceptance.FailReasons[id])))
		}
		for _, id := range r.Acceptance.SkippedIDs {
			fmt.Fprintf(w, "reference run %d: skipped %s: %s\n", r.N, id, orNone(r.Acceptance.SkipReasons[id]))
		}
		if len(r.Acceptance.NotClaimedIDs) > 0 {
			fmt.Fprintf(w, "reference run %d: not claimed by the reference (not run) %s\n", r.N, strings.Join(r.Acceptance.NotClaimedIDs, " "))
		}
		if r.Race.Found {
			fmt.Fprintf(w, "reference run %d: race hunt found %s: %s\n", r.N, r.Race.Class, r.Race.Violation)
		}
	}
	caught := len(m.Rows) - len(m.Survivors())
	passed := 0
	for _, r := range m.Reference {
		if r.OK() {
			passed++
		}
	}
	verdict := "PASS"
	if !m.OK() {
		verdict = "FAIL"
	}
	scope := ""
	if m.Profiles != nil {
		ps := make([]string, len(m.Profiles))
		for i, p := range m.Profiles {
			ps[i] = string(p)
		}
		scope = ", profiles " + strings.Join(ps, ",")
	}
	fmt.Fprintf(w, "selftest %s: %d/%d faults caught, reference passed %d/%d runs, store %s%s, %s\n", verdict, caught, len(m.Rows), passed, len(m.Reference), m.Store, scope, m.Elapsed.Round(100*time.Millisecond))
}

func refAcceptance(a AcceptanceResult) string {
	s := fmt.Sprintf("%d passed", a.Passed)
	if a.Failed > 0 {
		s += fmt.Sprintf(", %d FAILED", a.Failed)
	}
	if a.Skipped > 0 {
		s += fmt.Sprintf(", %d SKIPPED", a.Skipped)
	}
	return s
}

func refRace(r RaceResult, checks int) string {
	switch {
	case !r.Ran:
		return "not run"
	case r.Found:
		return fmt.Sprintf("VIOLATION %s after %d workloads", r.Class, r.Checks)
	}
	return fmt.Sprintf("%d/%d workloads clean (%d replicas)", r.Checks, checks, r.Replicas)
}

func rowAcceptance(r Row) string {
	a := r.Acceptance
	var s string
	if a.Failed == 0 {
		s = "missed (all passed)"
	} else {
		s = fmt.Sprintf("caught: %d failed (%s)", a.Failed, abbreviate(a.FailedIDs, 3))
	}
	if len(r.Scenarios) == 0 {
		s += " [not required]"
	}
	return s
}

func rowRace(r Row) string {
	switch {
	case !r.Race.Ran:
		return "-"
	case r.Race.Found:
		return fmt.Sprintf("caught: %s after %d clean workload(s), %d replica(s)", r.Race.Class, r.Race.Checks, r.Race.Replicas)
	}
	return fmt.Sprintf("missed (%d workloads clean)", r.Race.Checks)
}

func abbreviate(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, " ")
	}
	return strings.Join(ids[:n], " ") + fmt.Sprintf(" +%d", len(ids)-n)
}

// orNone is why, or "(no reason recorded)".
func orNone(why string) string {
	if why == "" {
		return "(no reason recorded)"
	}
	return why
}

// indented is a message of several lines, its later lines indented under
// the first.
func indented(msg string) string {
	return strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", "\n    ")
}

// writeSuiteTime says, per profile in the registry's order, the wall time
// of its acceptance suites summed (the reference's and its faults').
func (m *Matrix) writeSuiteTime(w io.Writer) {
	var parts []string
	for _, p := range profile.All() {
		if d, ok := m.SuiteTime[p.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s %s", p.Name, d.Round(100*time.Millisecond)))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "suite time per profile (each suite's wall time, summed; several run at once): %s\n", strings.Join(parts, ", "))
	}
}
