package loadgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Report is load.json.
type Report struct {
	Meta
	Start                time.Time    `json:"start"` // measured window
	End                  time.Time    `json:"end"`
	DurationSeconds      float64      `json:"duration_s"`
	WarmupSeconds        float64      `json:"warmup_s"`
	Requests             int64        `json:"requests"`
	AchievedRate         float64      `json:"achieved_rate"` // requests per second
	ByStatus             StatusCounts `json:"by_status"`
	LatencyMs            Percentiles  `json:"latency_ms"`             // from the intended send time
	UncorrectedLatencyMs Percentiles  `json:"uncorrected_latency_ms"` // from the actual send
	SchedulerLagMs       Percentiles  `json:"scheduler_lag_ms"`       // how late the scheduler woke
	Thresholds           []Verdict    `json:"thresholds"`
	Pass                 bool         `json:"pass"`
	Interrupted          bool         `json:"interrupted,omitempty"`
	ErrorSample          []string     `json:"error_sample,omitempty"`
	Intervals            []Interval   `json:"intervals"`
	Sources              []string     `json:"sources,omitempty"` // merged logs

	distChart chart // drawn from the histograms, which the report does not keep
}

// NewReport evaluates thresholds on res.
func NewReport(res *Result, thresholds []Threshold) *Report {
	r := &Report{
		Meta:                 res.Meta,
		Start:                res.Start,
		End:                  res.End,
		DurationSeconds:      res.End.Sub(res.Start).Seconds(),
		WarmupSeconds:        res.Meta.Warmup.Seconds(),
		Requests:             res.Totals.Requests(),
		ByStatus:             StatusCountsOf(res.Totals.Status),
		LatencyMs:            PercentilesOf(res.Totals.Corrected),
		UncorrectedLatencyMs: PercentilesOf(res.Totals.Uncorrected),
		SchedulerLagMs:       PercentilesOf(res.Totals.Lag),
		Interrupted:          res.Interrupted,
		ErrorSample:          res.ErrorSample,
		Intervals:            res.Intervals,
		Thresholds:           []Verdict{},
		distChart:            distributionChart(res.Totals.Corrected, res.Totals.Uncorrected),
	}
	if r.Intervals == nil {
		r.Intervals = []Interval{}
	}
	if r.DurationSeconds > 0 {
		r.AchievedRate = float64(r.Requests) / r.DurationSeconds
	}
	f := Figures{Latency: r.LatencyMs, Requests: r.Requests, Errors: r.ByStatus.Errors(), RateLimited: r.ByStatus.RateLimited, Rate: r.AchievedRate}
	r.Pass = !r.Interrupted
	for _, t := range thresholds {
		v := t.Evaluate(f)
		r.Thresholds = append(r.Thresholds, v)
		r.Pass = r.Pass && v.Pass
	}
	return r
}

// Breached lists the thresholds that failed.
func (r *Report) Breached() []Verdict {
	var out []Verdict
	for _, v := range r.Thresholds {
		if !v.Pass {
			out = append(out, v)
		}
	}
	return out
}

// Summary is a few human lines for the console.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d requests in %.1fs (%.1f req/s, %s loop", r.Requests, r.DurationSeconds, r.AchievedRate, r.Mode)
	if r.Mode == "open" {
		s += fmt.Sprintf(" at %g req/s", r.Rate)
	}
	s += fmt.Sprintf(", %d connections)\n", r.Connections)
	s += fmt.Sprintf("status: 200=%d 429=%d other=%d transport_errors=%d\n", r.ByStatus.OK, r.ByStatus.RateLimited, r.ByStatus.Other, r.ByStatus.TransportErrors)
	line := func(name string, p Percentiles) string {
		return fmt.Sprintf("%-22s p50 %.3f  p90 %.3f  p95 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms\n", name, p.P50, p.P90, p.P95, p.P99, p.P999, p.Max)
	}
	s += line("latency (corrected)", r.LatencyMs)
	s += line("latency (uncorrected)", r.UncorrectedLatencyMs)
	if r.SchedulerLagMs.Count > 0 {
		s += line("scheduler lag", r.SchedulerLagMs)
	}
	for _, e := range r.ErrorSample {
		s += "transport error: " + e + "\n"
	}
	for _, v := range r.Thresholds {
		verdict := "PASS"
		if !v.Pass {
			verdict = "FAIL"
		}
		s += fmt.Sprintf("threshold %-16s %s (actual %g %s)\n", v.Expr, verdict, v.Actual, v.Unit)
	}
	return s
}

// WriteFiles writes load.json, load.html and load.png into dir.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report dir: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode load.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "load.json"), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write load.json: %w", err)
	}
	if err := writeFile(filepath.Join(dir, "load.html"), r.WriteHTML); err != nil {
		return fmt.Errorf("write load.html: %w", err)
	}
	if err := writeFile(filepath.Join(dir, "load.png"), r.WritePNG); err != nil {
		return fmt.Errorf("write load.png: %w", err)
	}
	return nil
}
