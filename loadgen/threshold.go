package loadgen

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultThresholds is the PRD's performance requirement.
const DefaultThresholds = "p95<3ms"

// Threshold is one pass condition, e.g. p95<3ms.
type Threshold struct {
	Expr string // as written, trimmed
	// Metric is p50 p90 p95 p99 p99.9 max mean (latency, any queue
	// included), one of them prefixed service_ (latency less the queueing
	// delay) or queue_ (the queueing delay), errors, rate_limited or rate.
	Metric string
	Op     string  // < <= > >=
	Limit  float64 // ms for latencies, a fraction for errors and rate_limited, req/s for rate
}

// Verdict is a threshold evaluated on a run.
type Verdict struct {
	Expr   string  `json:"expr"`
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Limit  float64 `json:"limit"`
	Actual float64 `json:"actual"`
	Unit   string  `json:"unit"`
	Pass   bool    `json:"pass"`
}

var latencyMetrics = map[string]bool{"p50": true, "p90": true, "p95": true, "p99": true, "p99.9": true, "max": true, "mean": true}

const thresholdHelp = "write thresholds like p95<3ms;p99<5ms;errors<0.1%;rate>=990 (latency metrics p50 p90 p95 p99 p99.9 max mean with a unit ns, us, ms or s, queue included; prefixed service_ the latency without a leaky bucket's queueing delay, queue_ that delay; errors and rate_limited as a percentage or fraction; rate: the throughput, responses completed per second within the measured window)"

// ParseThresholds parses a ';'-separated list. Empty entries are ignored; an
// empty list is valid and has no thresholds.
func ParseThresholds(s string) ([]Threshold, error) {
	var out []Threshold
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		t, err := parseThreshold(part)
		if err != nil {
			return nil, fmt.Errorf("THRESHOLDS entry %q: %w; %s", part, err, thresholdHelp)
		}
		out = append(out, t)
	}
	return out, nil
}

func parseThreshold(s string) (Threshold, error) {
	i := strings.IndexAny(s, "<>")
	if i <= 0 {
		return Threshold{}, fmt.Errorf("no comparison (<, <=, >, >=) after a metric")
	}
	t := Threshold{Expr: s, Metric: strings.ToLower(strings.TrimSpace(s[:i]))}
	if prefix, base := splitLatency(t.Metric); base == "p999" {
		t.Metric = prefix + "p99.9" // the name load.json's field has (latency_ms.p999)
	}
	rest := s[i:]
	if strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, ">=") {
		t.Op, rest = rest[:2], rest[2:]
	} else {
		t.Op, rest = rest[:1], rest[1:]
	}
	rest = strings.TrimSpace(rest)
	num, unit := splitNumber(rest)
	if num == "" {
		return Threshold{}, fmt.Errorf("no number after %s", t.Op)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return Threshold{}, fmt.Errorf("%q is not a non-negative number", num)
	}
	unit = strings.TrimSpace(unit)
	switch {
	case isLatency(t.Metric):
		scale, ok := map[string]float64{"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1e3}[unit]
		if !ok {
			return Threshold{}, fmt.Errorf("latency needs a unit (ns, us, ms, s), got %q", unit)
		}
		t.Limit = v * scale
	case t.Metric == "errors" || t.Metric == "rate_limited":
		switch unit {
		case "%":
			t.Limit = v / 100
		case "":
			t.Limit = v
		default:
			return Threshold{}, fmt.Errorf("%s is a percentage (0.1%%) or a fraction (0.001), got unit %q", t.Metric, unit)
		}
		if t.Limit > 1 {
			return Threshold{}, fmt.Errorf("%s limit %v is more than 100%%", t.Metric, v)
		}
	case t.Metric == "rate":
		if unit != "" && unit != "/s" && unit != "rps" {
			return Threshold{}, fmt.Errorf("rate is in requests per second, got unit %q", unit)
		}
		t.Limit = v
	default:
		return Threshold{}, fmt.Errorf("unknown metric %q", t.Metric)
	}
	return t, nil
}

// splitNumber splits "3.5ms" into "3.5" and "ms".
func splitNumber(s string) (num, unit string) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	return s[:i], s[i:]
}

// Figures are the measurements thresholds are evaluated on.
type Figures struct {
	Latency     Percentiles // corrected, ms, any queue included
	Queue       Percentiles // the queueing delay prescribed (WithQueue); zero without a queue
	Service     Percentiles // Latency less Queue; empty without a queue (service_ metrics then read Latency)
	Requests    int64
	Errors      int64
	RateLimited int64
	Rate        float64 // throughput: responses completed per second in the window
}

// Evaluate returns t's verdict on f. With no requests measured every
// threshold fails: nothing was shown.
func (t Threshold) Evaluate(f Figures) Verdict {
	v := Verdict{Expr: t.Expr, Metric: t.Metric, Op: t.Op, Limit: t.Limit}
	switch t.Metric {
	case "errors":
		v.Actual = fraction(f.Errors, f.Requests)
	case "rate_limited":
		v.Actual = fraction(f.RateLimited, f.Requests)
	case "rate":
		v.Actual = f.Rate
	default:
		v.Actual = f.latency(t.Metric)
	}
	switch {
	case isLatency(t.Metric):
		v.Unit = "ms"
	case t.Metric == "rate":
		v.Unit = "req/s"
	default:
		v.Unit = "fraction"
	}
	if f.Requests == 0 {
		return v
	}
	switch t.Op {
	case "<":
		v.Pass = v.Actual < t.Limit
	case "<=":
		v.Pass = v.Actual <= t.Limit
	case ">":
		v.Pass = v.Actual > t.Limit
	case ">=":
		v.Pass = v.Actual >= t.Limit
	}
	return v
}

func fraction(n, d int64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// Prefixes of the latency metrics without the queue and of the queue.
const (
	prefixService = "service_"
	prefixQueue   = "queue_"
)

// splitLatency splits a metric into its prefix (service_, queue_ or none)
// and the rest.
func splitLatency(metric string) (prefix, base string) {
	for _, p := range []string{prefixService, prefixQueue} {
		if rest, ok := strings.CutPrefix(metric, p); ok {
			return p, rest
		}
	}
	return "", metric
}

// isLatency reports whether metric is a latency metric, prefixed or not.
func isLatency(metric string) bool {
	_, base := splitLatency(metric)
	return latencyMetrics[base]
}

// latency is the latency metric's figure in ms.
func (f Figures) latency(metric string) float64 {
	prefix, base := splitLatency(metric)
	p := f.Latency
	switch prefix {
	case prefixService:
		if f.Service.Count > 0 {
			p = f.Service
		} // no queue modelled: the latency is the service latency
	case prefixQueue:
		p = f.Queue
	}
	return map[string]float64{"p50": p.P50, "p90": p.P90, "p95": p.P95, "p99": p.P99, "p99.9": p.P999, "max": p.Max, "mean": p.Mean}[base]
}
