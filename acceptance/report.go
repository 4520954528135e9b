package acceptance

import (
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlspec/rlspec/steps"
	"github.com/rlspec/rlspec/target"
)

// clauseOf is the clause column of a result: its clause tags.
func clauseOf(r steps.ScenarioResult) string { return strings.Join(r.Clauses, " ") }

// writeTable prints the verdict table, then every failure with what the
// contract expects, what came back and the curl command that shows it.
func writeTable(w io.Writer, rep *Report) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLAUSE\tSCENARIO\tVERDICT")
	for _, r := range rep.Results {
		v := string(r.Status)
		if r.Status == steps.Skipped {
			v += " (" + r.Reason + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", clauseOf(r), r.Name, v)
	}
	tw.Flush()
	for _, r := range rep.Results {
		if r.Status != steps.Failed {
			continue
		}
		fmt.Fprintf(w, "\nFAIL %s\n", r.Name)
		if v := r.Violation; v != nil {
			fmt.Fprintf(w, "  clause:   %s — %s\n  expected: %s\n  actual:   %s\n", v.Clause, v.Check, v.Expected, v.Actual)
			if n := len(v.Evidence); n > 0 {
				ex := v.Evidence[n-1]
				fmt.Fprintf(w, "  request:  %s\n  response: %s\n", ex.Curl(), ex.Summary())
			}
		} else {
			fmt.Fprintf(w, "  %s\n", r.Reason)
		}
	}
	fmt.Fprintf(w, "\n%d scenarios: %d passed, %d failed, %d skipped in %s",
		len(rep.Results), rep.Count(steps.Passed), rep.Count(steps.Failed), rep.Count(steps.Skipped), rep.Elapsed.Round(time.Millisecond))
	if rep.Strict && rep.Count(steps.Skipped) > 0 {
		fmt.Fprint(w, " (STRICT=1: skipped scenarios fail the run)")
	}
	fmt.Fprintln(w)
}

func writeReports(dir string, rep *Report) error {
	if err := writeFile(filepath.Join(dir, "junit.xml"), func(w io.Writer) error { return writeJUnit(w, rep) }); err != nil {
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

// JUnit XML (the common Ant/Jenkins schema).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Hostname  string      `xml:"hostname,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func writeJUnit(w io.Writer, rep *Report) error {
	host, _ := os.Hostname()
	suite := junitSuite{
		Name: "rlspec acceptance: " + rep.Target, Tests: len(rep.Results),
		Failures: rep.Count(steps.Failed), Skipped: rep.Count(steps.Skipped),
		Time: secs(rep.Elapsed), Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05"), Hostname: host,
	}
	for _, r := range rep.Results {
		c := junitCase{Name: r.Name + " " + tagList(r), Classname: strings.TrimSuffix(r.Feature, ".feature"), Time: secs(r.Duration)}
		switch r.Status {
		case steps.Failed:
			f := &junitFailure{Message: firstLine(r.Reason), Type: "Violation", Text: r.Reason}
			if v := r.Violation; v != nil {
				f.Message = fmt.Sprintf("%s: %s: expected %s; got %s", v.Clause, v.Check, v.Expected, v.Actual)
				f.Text = failureText(v)
			} else {
				f.Type = "Error"
			}
			c.Failure = f
		case steps.Skipped:
			c.Skipped = &junitSkipped{Message: r.Reason}
		}
		suite.Cases = append(suite.Cases, c)
	}
	// testsuites has no skipped attribute in the Jenkins junit-10.xsd schema.
	doc := junitSuites{Name: "rlspec", Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func tagList(r steps.ScenarioResult) string {
	tags := make([]string, 0, len(r.Clauses))
	for _, c := range r.Clauses {
		tags = append(tags, "@"+c)
	}
	return "(" + strings.Join(tags, " ") + ")"
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
func evidence(v *steps.Violation) ([]*target.Exchange, int) {
	if n := len(v.Evidence); n > maxEvidence {
		return v.Evidence[n-maxEvidence:], n - maxEvidence
	}
	return v.Evidence, 0
}

func failureText(v *steps.Violation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "clause:   %s\ncheck:    %s\nexpected: %s\nactual:   %s\n", v.Clause, v.Check, v.Expected, v.Actual)
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
	"clause": clauseOf,
	"lower":  func(s steps.Status) string { return strings.ToLower(string(s)) },
	"resp":   responseText,
	"evidence": func(v *steps.Violation) map[string]any {
		exs, omitted := evidence(v)
		return map[string]any{"Exchanges": exs, "Omitted": omitted}
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rlspec acceptance report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.pass{background:#e6f4ea}.fail{background:#fce8e6}.skipped{background:#fef7e0}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
h2{margin-top:2em}
</style></head><body>
<h1>rlspec acceptance report</h1>
<p>Target: {{.Target}} — {{len .Results}} scenarios: {{.Count "PASS"}} passed, {{.Count "FAIL"}} failed, {{.Count "SKIPPED"}} skipped{{if .Strict}} (STRICT=1){{end}}; {{.Elapsed.Round 1000000}}.</p>
<table><tr><th>Clause</th><th>Scenario</th><th>Verdict</th></tr>
{{range .Results}}<tr class="{{lower .Status}}"><td>{{clause .}}</td><td>{{if eq .Status "FAIL"}}<a href="#{{.ID}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td><td>{{.Status}}{{if eq .Status "SKIPPED"}}: {{.Reason}}{{end}}</td></tr>
{{end}}</table>
{{range .Results}}{{if eq .Status "FAIL"}}
<h2 id="{{.ID}}">FAIL {{.Name}}</h2>
{{with .Violation}}<p><b>Clause</b> {{.Clause}} — {{.Check}}<br><b>Expected</b> {{.Expected}}<br><b>Actual</b> {{.Actual}}</p>
<h3>Requests and responses that show it</h3>
{{with evidence .}}{{if .Omitted}}<p>({{.Omitted}} earlier exchanges omitted)</p>{{end}}{{range .Exchanges}}<pre>$ {{.Curl}}

{{resp .}}</pre>
{{end}}{{end}}{{else}}<pre>{{.Reason}}</pre>{{end}}
{{end}}{{end}}
</body></html>
`))

func responseText(ex *target.Exchange) string {
	if ex.Err != nil {
		return "no response: " + ex.Err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d (%s after sending)\n", ex.Status, ex.Received.Sub(ex.Sent).Round(time.Microsecond))
	for _, k := range []string{target.HeaderLimit, target.HeaderRemaining, target.HeaderReset, target.HeaderRetryAfter, "Content-Type"} {
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
