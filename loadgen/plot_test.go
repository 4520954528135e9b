package loadgen

import (
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
)

func TestLogTicksAreRound(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(0.3, 40) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.5 1 2 5 10 20" {
		t.Errorf("labels %q", got)
	}
	for _, tk := range (logTicks{}).Ticks(0.001, 5000) {
		if e := math.Log10(tk.Value); tk.Label != "" && math.Abs(e-math.Round(e)) > 1e-9 {
			t.Errorf("wide range labels %q", tk.Label)
		}
	}
}

// TestPlots: the latency plots have a log latency axis and the latency
// thresholds drawn in; the throughput plot shows throughput, 429s and
// errors per second with the scheduled rate.
func TestPlots(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	r := &Report{Start: start, DurationSeconds: 3, ScheduledRate: 100,
		Thresholds: []Verdict{{Expr: "p95<3ms", Metric: "p95", Limit: 3}, {Expr: "errors<1%", Metric: "errors", Limit: 0.01}}}
	for i := 0; i < 3; i++ {
		s := start.Add(time.Duration(i) * time.Second)
		r.Intervals = append(r.Intervals, Interval{Start: s, End: s.Add(time.Second), Requests: 100, Errors: 2, RateLimited: 5, P50: 0.5, P95: 2, P99: 4, Max: 9, UncorrectedP99: 3})
	}
	lat, err := r.latencyPlot()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lat.p.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("latency axis is not logarithmic")
	}
	svgs, err := r.svgs()
	if err != nil {
		t.Fatal(err)
	}
	if len(svgs) != 3 {
		t.Fatalf("%d plots", len(svgs))
	}
	for i, want := range [][]string{
		{"latency (ms, log scale)", "seconds since the start of measurement", "threshold p95&lt;3ms", "uncorrected p99"},
		{"latency (ms, log scale)", "99.9%", "threshold p95&lt;3ms"},
		{"responses per second", "429/s", "errors/s", "scheduled rate"},
	} {
		for _, w := range want {
			if !strings.Contains(string(svgs[i]), w) {
				t.Errorf("plot %d lacks %q", i, w)
			}
		}
	}
	if strings.Contains(string(svgs[0]), "errors&lt;1%") {
		t.Errorf("a non-latency threshold drawn on the latency axis")
	}
}
