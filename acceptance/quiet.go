package acceptance

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/steps"
)

// Scenarios of features the target does not claim are not news: without
// -v (VERBOSE) they are one line of the summary, not a line each around
// the verdicts that matter.

// isNotClaimed reports whether r was skipped because the target does not
// claim its extended feature (FEATURES).
func isNotClaimed(r steps.ScenarioResult) bool {
	return r.NotClaimed || (r.Status == steps.Skipped && strings.HasPrefix(r.Reason, steps.NotClaimed))
}

// writeNotClaimed prints the one line that stands for the scenarios of
// features not claimed: "9 scenarios of features not claimed: PN-1…5,
// IETF-1, MI-1 (-v lists them)".
func writeNotClaimed(w io.Writer, rep *Report) {
	var clauses []string
	seen := map[string]bool{}
	n := 0
	for _, r := range rep.Results {
		if !isNotClaimed(r) {
			continue
		}
		n++
		// Its clause: the first clause tag, or (a scenario godog never
		// ran, left out before the run) its id without the number: PN-1.
		c := r.ID
		if i := strings.LastIndex(c, "-"); i > 0 {
			c = c[:i]
		}
		if len(r.Clauses) > 0 {
			c = r.Clauses[0].String()
		}
		if !seen[c] {
			seen[c] = true
			clauses = append(clauses, c)
		}
	}
	if n == 0 {
		return
	}
	what := "scenarios"
	if n == 1 {
		what = "scenario"
	}
	fmt.Fprintf(w, "\n%d %s of features not claimed: %s (-v lists them)\n", n, what, compressClauses(clauses))
}

// compressClauses writes runs of one family's consecutive numbers as a
// range: PN-1, PN-2, PN-3, IETF-1 → PN-1…3, IETF-1.
func compressClauses(cs []string) string {
	var out []string
	for i := 0; i < len(cs); {
		fam, first, ok := familyNumber(cs[i])
		j := i + 1
		for ok && j < len(cs) {
			f, n, ok2 := familyNumber(cs[j])
			if !ok2 || f != fam || n != first+(j-i) {
				break
			}
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s-%d…%d", fam, first, first+j-i-1))
		} else {
			out = append(out, cs[i])
		}
		i = j
	}
	return strings.Join(out, ", ")
}

// familyNumber splits "PN-3" into "PN" and 3.
func familyNumber(c string) (string, int, bool) {
	i := strings.LastIndex(c, "-")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(c[i+1:])
	return c[:i], n, err == nil
}
