package acceptance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/steps"
)

// clauseOf is the clause column of a result: its clause tags.
func clauseOf(r steps.ScenarioResult) string {
	ids := make([]string, len(r.Clauses))
	for i, id := range r.Clauses {
		ids[i] = id.String()
	}
	return strings.Join(ids, " ")
}

// charge is the line saying what a violation is charged to: its clause
// and check, or the precondition that failed.
func charge(v *steps.Violation) string {
	if v.Precondition {
		return fmt.Sprintf("precondition: %s (rests on %s); root cause: %s", v.Check, v.Clause, v.Cause)
	}
	return fmt.Sprintf("clause:   %s — %s", v.Clause, v.Check)
}

// cause is one root cause of a run's failures and the scenarios it broke.
type cause struct {
	Cause string
	IDs   []string
	See   string // the scenario that checks the cause itself, if it failed
}

func (c cause) String() string {
	n := fmt.Sprintf("%d scenarios", len(c.IDs))
	if len(c.IDs) == 1 {
		n = "1 scenario (" + c.IDs[0] + ")"
	}
	s := n + ": " + c.Cause
	if c.See != "" && len(c.IDs) > 1 {
		s += " — see " + c.See
	}
	return s
}

// rootCauses groups a run's failures by root cause, most scenarios first.
func rootCauses(rep *Report) []cause {
	var out []cause
	at := map[string]int{}
	for _, r := range rep.Results {
		if r.Status != steps.Failed {
			continue
		}
		i, ok := at[r.Cause]
		if !ok {
			i = len(out)
			at[r.Cause] = i
			out = append(out, cause{Cause: r.Cause})
		}
		out[i].IDs = append(out[i].IDs, r.ID)
		if out[i].See == "" && r.Violation != nil && !r.Violation.Precondition {
			out[i].See = r.ID
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].IDs) > len(out[j].IDs) })
	return out
}

// writeCauses prints the root causes of the failures.
func writeCauses(w io.Writer, rep *Report) {
	cs := rootCauses(rep)
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nroot causes of the failures:")
	for _, c := range cs {
		fmt.Fprintf(w, "  %s\n", c)
	}
}

// writeTable prints the verdict table (the scenarios of features not
// claimed as one line unless verbose), then every failure with what the
// contract expects, what came back and the curl command that shows it.
func writeTable(w io.Writer, rep *Report, verbose bool) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLAUSE\tSCENARIO\tVERDICT")
	for _, r := range rep.Results {
		if !verbose && isNotClaimed(r) {
			continue
		}
		v := string(r.Status)
		if r.Status == steps.Skipped {
			v += " (" + r.Reason + ")"
		} else if r.Rerun != "" {
			v += " (second run: " + r.Rerun + " in the first)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", clauseOf(r), r.Name, v)
	}
	tw.Flush()
	if !verbose {
		writeNotClaimed(w, rep)
	}
	for _, r := range rep.Results {
		if r.Status != steps.Failed {
			continue
		}
		fmt.Fprintf(w, "\nFAIL %s\n", r.Name)
		if v := r.Violation; v != nil {
			fmt.Fprintf(w, "  %s\n  expected: %s\n  actual:   %s\n", charge(v), v.Expected, v.Actual)
			if n := len(v.Evidence); n > 0 {
				ex := v.Evidence[n-1]
				fmt.Fprintf(w, "  request:  %s\n  response: %s\n", ex.Curl(), ex.Summary())
			}
		} else {
			fmt.Fprintf(w, "  %s\n", r.Reason)
		}
	}
	writeCauses(w, rep)
	fmt.Fprintf(w, "\n%d scenarios: %d passed, %d failed, %d skipped", len(rep.Results), rep.Count(steps.Passed), rep.Count(steps.Failed), rep.Count(steps.Skipped))
	if nc := rep.notClaimed(); nc > 0 {
		fmt.Fprintf(w, " (%d of them not claimed)", nc)
	}
	fmt.Fprintf(w, " in %s", rep.Elapsed.Round(time.Millisecond))
	if rep.Strict && rep.Count(steps.Skipped) > rep.notClaimed() {
		fmt.Fprint(w, " (STRICT=1: skipped scenarios other than not claimed ones fail the run)")
	}
	fmt.Fprintln(w)
}

func writeReports(dir string, rep *Report) error {
	if err := junit.WriteFile(dir, junitSuite(rep)); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, ConformanceFile), func(w io.Writer) error { return writeConformance(w, rep) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), func(w io.Writer) error { return writeHTML(w, rep) })
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// junitSuite is the run as JUnit: one case per scenario, named by its id
// and title (stable when tags change), its tags as properties.
func junitSuite(rep *Report) junit.Suite {
	suite := junit.Suite{Name: "rlspec acceptance: " + rep.Target, Started: time.Now().Add(-rep.Elapsed), Elapsed: rep.Elapsed}
	for _, r := range rep.Results {
		c := junit.Case{Name: r.Name, Classname: strings.TrimSuffix(r.Feature, ".feature"), Elapsed: r.Duration}
		c.Properties = append(c.Properties, junit.Prop("id", r.ID))
		for _, tag := range r.Clauses {
			c.Properties = append(c.Properties, junit.Prop("tag", "@"+tag))
		}
		switch r.Status {
		case steps.Failed:
			if v := r.Violation; v != nil {
				c.Failure = &junit.Problem{Message: v.Headline(), Type: "Violation", Text: failureText(v)}
			} else {
				c.Failure = &junit.Problem{Message: firstLine(r.Reason), Type: "Error", Text: r.Reason}
			}
		case steps.Skipped:
			c.Skipped = r.Reason
		}
		suite.Cases = append(suite.Cases, c)
	}
	return suite
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// maxEvidence caps the exchanges a report shows per failure: the last ones
// are the ones that show it.
const maxEvidence = 8

// evidence returns the last maxEvidence exchanges of v and how many earlier
// ones were left out.
func evidence(v *steps.Violation) ([]*httpclient.Exchange, int) {
	if n := len(v.Evidence); n > maxEvidence {
		return v.Evidence[n-maxEvidence:], n - maxEvidence
	}
	return v.Evidence, 0
}

func failureText(v *steps.Violation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nexpected: %s\nactual:   %s\n", charge(v), v.Expected, v.Actual)
	exs, omitted := evidence(v)
	if omitted > 0 {
		fmt.Fprintf(&b, "\n(%d earlier exchanges omitted)\n", omitted)
	}
	for _, ex := range exs {
		fmt.Fprintf(&b, "\n$ %s\n%s\n", ex.Curl(), ex.Summary())
	}
	return b.String()
}

// HTML report: one self-contained page.
var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"clause":   clauseOf,
	"lower":    func(s steps.Status) string { return strings.ToLower(string(s)) },
	"resp":     responseText,
	"ordered":  failuresFirst,
	"causes":   rootCauses,
	"inc":      func(i int) int { return i + 1 },
	"compared": compared,
	"evidence": func(v *steps.Violation) map[string]any {
		exs, omitted := evidence(v)
		return map[string]any{"Exchanges": exs, "Omitted": omitted}
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rlspec acceptance report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}dl.clauses{margin:0}dl.clauses dt{font-weight:bold}dl.clauses dd{margin:0 0 4px 1em;color:#555}.pass{background:#e6f4ea}.fail{background:#fce8e6}.skipped{background:#fef7e0}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
h2{margin-top:2em}ol.steps li.notrun{color:#999}details{margin:4px 0;padding:2px 8px}
table.cmp{width:auto}table.cmp td{font-family:monospace}td.expected{background:#e6f4ea}td.actual{background:#fce8e6}mark{background:#ffd54f;font-weight:bold}.summary span{display:inline-block;padding:6px 14px;margin-right:8px;font-size:18px;font-weight:bold}
</style></head><body>
<h1>rlspec acceptance report</h1>
<p class="summary"><span class="fail">{{.Count "FAIL"}} failed</span><span class="skipped">{{.Count "SKIPPED"}} skipped</span><span class="pass">{{.Count "PASS"}} passed</span></p>
<p>Target: {{.Target}} — {{len .Results}} scenarios{{if .Strict}} (STRICT=1: a skipped scenario fails the run){{end}}; {{.Elapsed.Round 1000000}}.</p>
{{range .Runs}}{{if .Dialect}}<p>{{if .Profile}}{{.Profile}}: {{end}}{{.Dialect}}</p>{{end}}{{end}}
{{with causes .}}<h2>Root causes of the failures</h2><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Count "FAIL"}}<p><b>Failures:</b> {{range .Results}}{{if eq .Status "FAIL"}}<a href="#{{.ID}}">{{.Name}}</a>; {{end}}{{end}}</p>{{end}}
<table><tr><th>Clause</th><th>Scenario</th><th>Verdict</th></tr>
{{range ordered .Results}}<tr class="{{lower .Status}}"><td>{{template "clauses" .Clauses}}</td><td>{{if eq .Status "FAIL"}}<a href="#{{.ID}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td><td>{{.Status}}{{if eq .Status "SKIPPED"}}: {{.Reason}}{{else if .Rerun}} (second run: {{.Rerun}} in the first){{end}}</td></tr>
{{end}}</table>
{{range .Results}}{{if eq .Status "FAIL"}}
<h2 id="{{.ID}}">FAIL {{.Name}}</h2>
{{template "clauses" .Clauses}}
{{template "steps" .}}
{{with .Violation}}<p><b>{{if .Precondition}}Precondition{{else}}Clause{{end}}</b> {{.Charge}} — {{.Check}}</p>
{{compared .Expected .Actual}}
<h3>Requests and responses that show it</h3>
{{with evidence .}}{{if .Omitted}}<p>({{.Omitted}} earlier exchanges omitted)</p>{{end}}{{range .Exchanges}}<pre>$ {{.Curl}}

{{resp .}}</pre>
{{end}}{{end}}{{else}}<pre>{{.Reason}}</pre>{{end}}
{{end}}{{end}}
<h2>Every scenario's steps</h2>
{{range ordered .Results}}{{if ne .Status "FAIL"}}<details class="{{lower .Status}}"><summary>{{.Status}} {{.Name}}</summary>
{{template "clauses" .Clauses}}{{template "steps" .}}{{if eq .Status "SKIPPED"}}<p>Skipped: {{.Reason}}</p>{{end}}</details>
{{end}}{{end}}
</body></html>
{{define "clauses"}}<dl class="clauses">{{range .}}<dt>{{.}}</dt><dd>{{.Text}}</dd>{{end}}</dl>{{end}}
{{define "steps"}}<ol class="steps">{{$failed := .FailedStep}}{{$status := lower .Status}}{{range $i, $text := .Steps}}<li{{if eq (inc $i) $failed}} class="{{$status}}"{{else if and $failed (gt (inc $i) $failed)}} class="notrun"{{end}}>{{$text}}{{if eq (inc $i) $failed}} <b>← {{$status}} here</b>{{end}}</li>{{end}}</ol>{{end}}
`))

// stamp is an exchange's time in UTC to the microsecond.
func stamp(t time.Time) string { return t.UTC().Format("15:04:05.000000Z") }

// failuresFirst orders results failed, skipped, passed, each by ID.
func failuresFirst(rs []steps.ScenarioResult) []steps.ScenarioResult {
	rank := map[steps.Status]int{steps.Failed: 0, steps.Skipped: 1}
	out := append([]steps.ScenarioResult(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, ok := rank[out[i].Status]
		if !ok {
			ri = 2
		}
		rj, ok := rank[out[j].Status]
		if !ok {
			rj = 2
		}
		return ri < rj
	})
	return out
}

func responseText(ex *httpclient.Exchange) string {
	if ex.Err != nil {
		return fmt.Sprintf("sent %s, no response by %s: %s", stamp(ex.Sent), stamp(ex.Received), ex.Err.Error())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sent %s, received %s\n", stamp(ex.Sent), stamp(ex.Received))
	fmt.Fprintf(&b, "HTTP %d (%s after sending)\n", ex.Status, ex.Received.Sub(ex.Sent).Round(time.Microsecond))
	for _, k := range []string{dialect.HeaderLimit, dialect.HeaderRemaining, dialect.HeaderReset, dialect.HeaderRetryAfter, "Content-Type"} {
		for _, v := range ex.RespHeader.Values(k) {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	body := ex.RespBody
	if len(body) > 2000 {
		body = append(body[:2000:2000], "…"...)
	}
	fmt.Fprintf(&b, "\n%s", body)
	return b.String()
}

func writeHTML(w io.Writer, rep *Report) error {
	return htmlTmpl.Execute(w, rep)
}

// ReportLayoutDigest names report.html's layout: a digest of its template.
// docs/report.png records the one it was taken of (make screenshot), and a
// test fails when the template has changed since.
func ReportLayoutDigest() string {
	sum := sha256.Sum256([]byte(htmlTmpl.Tree.Root.String()))
	return hex.EncodeToString(sum[:12])
}
