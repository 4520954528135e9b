package loadgen

import (
	"html/template"
	"io"
)

var htmlReport = template.Must(template.New("load").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>rlspec load report</title>
<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}.pass{color:#080;font-weight:bold}.fail{color:#c00;font-weight:bold}</style>
</head><body>
<h1>Load report {{if .Pass}}<span class="pass">PASS</span>{{else}}<span class="fail">FAIL</span>{{end}}</h1>
<p>Target <code>{{.Target}}</code>, {{.Mode}} loop{{if eq .Mode "open"}} at {{.Rate}} req/s{{end}}, {{.Connections}} connections, {{.Buckets}} device buckets.
Measured {{printf "%.1f" .DurationSeconds}} s from {{.Start.UTC.Format "2006-01-02 15:04:05Z"}} after {{.WarmupSeconds}} s of warm-up (excluded).
{{.Requests}} requests{{if eq .Mode "open"}} scheduled at {{printf "%.1f" .ScheduledRate}} req/s{{end}}; throughput {{printf "%.1f" .AchievedRate}} req/s (responses completed within the measured window{{if .AnsweredLate}}; {{.AnsweredLate}} answered after it{{end}}).{{if .Behind}} <b class="fail">The target fell behind the schedule.</b>{{end}}{{if .Interrupted}} <b>Interrupted.</b>{{end}}</p>
{{if .Sources}}<p>Merged from: {{range .Sources}}<code>{{.}}</code> {{end}}</p>{{end}}
<h2>Thresholds</h2>
<table><tr><th>threshold</th><th>actual</th><th>verdict</th></tr>
{{range .Thresholds}}<tr><td>{{.Expr}}</td><td>{{printf "%.4g" .Actual}} {{.Unit}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">FAIL</span>{{end}}</td></tr>
{{end}}</table>
<h2>Latency (ms)</h2>
<p>Corrected latency is measured from each request's intended send time on the open-loop schedule, so time a request spent waiting behind a stalled one counts; uncorrected is from the moment it was actually written.</p>
<table><tr><th></th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th></tr>
{{with .LatencyMs}}<tr><th>corrected</th><td>{{.P50}}</td><td>{{.P90}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.P999}}</td><td>{{.Max}}</td><td>{{.Mean}}</td></tr>{{end}}
{{with .UncorrectedLatencyMs}}<tr><th>uncorrected</th><td>{{.P50}}</td><td>{{.P90}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.P999}}</td><td>{{.Max}}</td><td>{{.Mean}}</td></tr>{{end}}
{{with .SchedulerLagMs}}<tr><th>scheduler lag</th><td>{{.P50}}</td><td>{{.P90}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.P999}}</td><td>{{.Max}}</td><td>{{.Mean}}</td></tr>{{end}}
</table>
<h2>Status</h2>
<table><tr><th>200</th><th>429</th><th>other</th><th>transport errors</th></tr>
<tr><td>{{.ByStatus.OK}}</td><td>{{.ByStatus.RateLimited}}</td><td>{{.ByStatus.Other}}</td><td>{{.ByStatus.TransportErrors}}</td></tr></table>
{{if .Penalties}}<p>429s: {{.ByStatus.Algorithm}} from the algorithm, {{.ByStatus.Penalty}} under a penalty (penalty_active in the body).</p>{{end}}
{{if .ByStatus.Codes}}<p>By code: {{range $k, $v := .ByStatus.Codes}}{{$k}}: {{$v}} &nbsp; {{end}}</p>{{end}}
{{range .ErrorSample}}<p>transport error: <code>{{.}}</code></p>{{end}}
<h2>Plots</h2>
{{range .Plots}}<div>{{.}}</div>
{{end}}
</body></html>
`))

// WriteHTML writes a self-contained HTML report with inline SVG plots.
func (r *Report) WriteHTML(w io.Writer) error {
	plots, err := r.svgs()
	if err != nil {
		return err
	}
	return htmlReport.Execute(w, struct {
		*Report
		Plots []template.HTML
	}{r, plots})
}
