package loadgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rlspec/rlspec/internal/junit"
)

// Report is load.json.
type Report struct {
	Meta
	Start           time.Time `json:"start"` // measured window
	End             time.Time `json:"end"`
	DurationSeconds float64   `json:"duration_s"`
	WarmupSeconds   float64   `json:"warmup_s"`
	Requests        int64     `json:"requests"` // measured: scheduled (open loop) or sent (closed) in the window
	// AchievedRate is the throughput: responses completed per second within
	// the measured window (requests answered after it do not count).
	AchievedRate float64 `json:"achieved_rate"`
	// ScheduledRate is the open loop's rate (0 in a closed loop).
	ScheduledRate float64 `json:"scheduled_rate"`
	// AnsweredLate counts measured requests answered after the window.
	AnsweredLate int64 `json:"answered_late"`
	// Behind is set when an open loop's throughput fell more than
	// behindMargin short of the scheduled rate: the target did not keep up.
	Behind               bool         `json:"behind"`
	ByStatus             StatusCounts `json:"by_status"`
	LatencyMs            Percentiles  `json:"latency_ms"`             // from the intended send time
	UncorrectedLatencyMs Percentiles  `json:"uncorrected_latency_ms"` // from the actual send
	SchedulerLagMs       Percentiles  `json:"scheduler_lag_ms"`       // how late the scheduler woke
	// With a queue modelled (a leaky bucket, WithQueue): QueueDelayMs is
	// the queueing delay the design prescribed for each allowed response
	// (model Decision.Wait), ServiceLatencyMs every response's latency less
	// it, QueueEdge the responses the model decided otherwise. Absent
	// without a queue. latency_ms includes the queue.
	QueueDelayMs     *Percentiles `json:"queue_delay_ms,omitempty"`
	ServiceLatencyMs *Percentiles `json:"service_latency_ms,omitempty"`
	QueueEdge        *QueueEdge   `json:"queue_edge,omitempty"`
	Thresholds       []Verdict    `json:"thresholds"`
	Pass             bool         `json:"pass"`
	Interrupted      bool         `json:"interrupted,omitempty"`
	ErrorSample      []string     `json:"error_sample,omitempty"`
	Intervals        []Interval   `json:"intervals"`
	Sources          []string     `json:"sources,omitempty"` // merged logs
	// Generators are the merged generators, a failed one with its error;
	// StartSkewMs the spread of their actual beginnings on a shared
	// schedule (latest minus earliest).
	Generators  []GeneratorRun `json:"generators,omitempty"`
	StartSkewMs float64        `json:"start_skew_ms,omitempty"`

	dist distribution // drawn from the histograms, which the report does not keep
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
		Generators:           res.Generators,
		StartSkewMs:          float64(startSkew(res.Generators)) / 1e6,
		Thresholds:           []Verdict{},
		dist:                 distributionOf(res.Totals.Corrected, res.Totals.Uncorrected),
	}
	if r.Intervals == nil {
		r.Intervals = []Interval{}
	}
	r.AnsweredLate = res.Late
	if res.Totals.Service.TotalCount() > 0 {
		q, sv := PercentilesOf(res.Totals.Queue), PercentilesOf(res.Totals.Service)
		e := res.QueueEdge
		r.QueueDelayMs, r.ServiceLatencyMs, r.QueueEdge = &q, &sv, &e
	}
	if r.DurationSeconds > 0 {
		r.AchievedRate = float64(r.Requests-r.AnsweredLate) / r.DurationSeconds
	}
	if r.Mode == "open" {
		r.ScheduledRate = r.Rate
		r.Behind = r.AchievedRate < (1-behindMargin)*r.ScheduledRate
	}
	f := Figures{Latency: r.LatencyMs, Requests: r.Requests, Errors: r.ByStatus.Errors(), RateLimited: r.ByStatus.RateLimited, Rate: r.AchievedRate}
	if r.ServiceLatencyMs != nil {
		f.Queue, f.Service = *r.QueueDelayMs, *r.ServiceLatencyMs
	}
	r.Pass = !r.Interrupted && len(r.FailedGenerators()) == 0
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

// FailedGenerators lists the generators that did not finish.
func (r *Report) FailedGenerators() []GeneratorRun {
	var out []GeneratorRun
	for _, g := range r.Generators {
		if g.Error != "" {
			out = append(out, g)
		}
	}
	return out
}

// behindMargin is how far below the scheduled rate the throughput may be
// before the target counts as fallen behind.
const behindMargin = 0.05

// Summary is a few human lines for the console.
func (r *Report) Summary() string {
	var s string
	switch r.Mode {
	case "open":
		s = fmt.Sprintf("%d requests scheduled over %.1fs at %.1f req/s (open loop, %d connections)\n", r.Requests, r.DurationSeconds, r.ScheduledRate, r.Connections)
	default:
		s = fmt.Sprintf("%d requests over %.1fs (%s loop, %d connections)\n", r.Requests, r.DurationSeconds, r.Mode, r.Connections)
	}
	s += fmt.Sprintf("throughput: %.1f req/s (responses completed within the measured window", r.AchievedRate)
	if r.AnsweredLate > 0 {
		s += fmt.Sprintf("; %d answered after it", r.AnsweredLate)
	}
	s += ")\n"
	if r.Behind {
		s += fmt.Sprintf("BEHIND: the target answered %.1f req/s of the %.1f scheduled; latencies include the queue it built\n", r.AchievedRate, r.ScheduledRate)
	}
	s += fmt.Sprintf("status: 200=%d 429=%d other=%d transport_errors=%d\n", r.ByStatus.OK, r.ByStatus.RateLimited, r.ByStatus.Other, r.ByStatus.TransportErrors)
	if r.Penalties {
		s += fmt.Sprintf("429s: %d from the algorithm, %d under a penalty (penalty_active in the body)\n", r.ByStatus.Algorithm, r.ByStatus.Penalty)
	}
	line := func(name string, p Percentiles) string {
		return fmt.Sprintf("%-22s p50 %.3f  p90 %.3f  p95 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms\n", name, p.P50, p.P90, p.P95, p.P99, p.P999, p.Max)
	}
	s += line("latency (corrected)", r.LatencyMs)
	s += line("latency (uncorrected)", r.UncorrectedLatencyMs)
	if r.ServiceLatencyMs != nil {
		s += line("queueing delay", *r.QueueDelayMs)
		s += line("service latency", *r.ServiceLatencyMs)
		s += fmt.Sprintf("queueing delay: the leaky bucket's wait prescribed for the %d responses answered 200; service latency = latency less it (thresholds p99… include the queue, service_p99… exclude it, queue_p99… are the delay)\n", r.QueueDelayMs.Count)
		if e := r.QueueEdge; e.Total() > 0 {
			s += fmt.Sprintf("queue edge: %d 200s the model refused (they took the last place, whose delay they are given), %d 429s it allowed: the target decides a little after the send; pairs are the edge of a full queue, an excess another bucket than the settings'\n", e.Allowed, e.Refused)
		}
	}
	if r.SchedulerLagMs.Count > 0 {
		s += line("scheduler lag", r.SchedulerLagMs)
	}
	for _, g := range r.Generators {
		began := "no start instant"
		if !g.StartAt.IsZero() {
			began = fmt.Sprintf("began %.3f ms after the start instant", g.StartLagMs)
		}
		s += fmt.Sprintf("generator %-5s %8d requests  %s  %s\n", g.Generator, g.Requests, began, g.Name)
		if g.Error != "" {
			s += fmt.Sprintf("generator %s FAILED: %s (its requests up to then are in the totals)\n", g.Generator, g.Error)
		}
	}
	if len(r.Generators) > 1 && r.StartSkewMs > 0 {
		s += fmt.Sprintf("start skew between generators: %.3f ms\n", r.StartSkewMs)
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

// WriteFiles writes load.json, load.html, load.png and junit.xml into dir.
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
	return junit.WriteFile(dir, r.JUnit())
}
