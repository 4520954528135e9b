package acceptance

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps"
)

// report.html shows every scenario's steps under its clause quote, marks
// the step that failed or skipped it (later ones did not run), and sets a
// failure's expected and actual values side by side with the differing
// value marked.
func TestReportShowsStepsAndComparedValues(t *testing.T) {
	rep := &Report{Target: "t", Results: []steps.ScenarioResult{
		{ID: "AC1-01", Name: "AC1-01 [AC1] first", Clauses: []clause.ID{clause.AC1}, Status: steps.Failed,
			Steps:      []string{"a fresh device bucket", "I send a ride to the bucket", "Remaining is the limit minus 1", "never reached"},
			FailedStep: 3,
			Violation:  &steps.Violation{Clause: clause.Of(clause.AC1), Check: "first request", Expected: "X-RateLimit-Remaining 499", Actual: "X-RateLimit-Remaining 500 & more"}},
		{ID: "AC8-01", Name: "AC8-01 [AC8] off", Clauses: []clause.ID{clause.AC8}, Status: steps.Skipped, Reason: "no twin",
			Steps: []string{"the flag-off instance", "Remaining is the sentinel"}, FailedStep: 1},
		{ID: "AC2-01", Name: "AC2-01 [AC2] last unit", Clauses: []clause.ID{clause.AC2}, Status: steps.Passed,
			Steps: []string{"a fresh device bucket with 1 unit left"}},
	}}
	var b bytes.Buffer
	if err := writeHTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<li class="fail">Remaining is the limit minus 1 <b>← fail here</b></li>`,
		`<li class="notrun">never reached</li>`,
		`<li class="skipped">the flag-off instance <b>← skipped here</b></li>`,
		`<li>a fresh device bucket with 1 unit left</li>`,
		`<td class="expected">X-RateLimit-Remaining 499</td>`,
		`<td class="actual">X-RateLimit-Remaining <mark>500</mark> &amp; more</td>`,
		template.HTMLEscapeString(clause.AC2.Text()),
		template.HTMLEscapeString(clause.AC8.Text()),
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
}
