package loadgen

import (
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry: latencies in nanoseconds from 1 µs to 100 s at three
// significant digits; larger values are clamped to the top (and so still
// count, at 100 s). Status codes are recorded as values, 0 for a transport
// error.
const (
	latencyLowest  = int64(time.Microsecond)
	latencyHighest = int64(100 * time.Second)
	sigFigs        = 3
	statusHighest  = 1000
	statusError    = 0 // the status recorded for a transport error
)

// Tags of the histograms in an interval log.
const (
	TagCorrected   = "corrected"
	TagUncorrected = "uncorrected"
	TagLag         = "lag"
	TagStatus      = "status"
	TagQueue       = "queue"
	TagService     = "service"
)

// Histograms is one set of measurements: latency from the intended send
// (Corrected), latency from the actual send (Uncorrected), the scheduler's
// lateness (Lag) and the status codes (Status, 0 = transport error). With a
// queue modelled (WithQueue) also the queueing delay the design prescribed
// for each allowed response (Queue) and every response's latency less it
// (Service); both are empty otherwise.
type Histograms struct {
	Corrected, Uncorrected, Lag, Status *hdr.Histogram
	Queue, Service                      *hdr.Histogram
}

// NewHistograms returns an empty set.
func NewHistograms() *Histograms {
	return &Histograms{
		Corrected:   newLatencyHistogram(),
		Uncorrected: newLatencyHistogram(),
		Lag:         newLatencyHistogram(),
		Status:      hdr.New(1, statusHighest, sigFigs),
		Queue:       newLatencyHistogram(),
		Service:     newLatencyHistogram(),
	}
}

func newLatencyHistogram() *hdr.Histogram {
	return hdr.New(latencyLowest, latencyHighest, sigFigs)
}

// byTag returns the histogram of a log tag, nil for an unknown tag.
func (h *Histograms) byTag(tag string) *hdr.Histogram {
	switch tag {
	case TagCorrected:
		return h.Corrected
	case TagUncorrected:
		return h.Uncorrected
	case TagLag:
		return h.Lag
	case TagStatus:
		return h.Status
	case TagQueue:
		return h.Queue
	case TagService:
		return h.Service
	}
	return nil
}

// tags lists the log tags in a fixed order.
var tags = []string{TagCorrected, TagUncorrected, TagLag, TagStatus, TagQueue, TagService}

// Merge adds o into h. It returns the number of values that fell outside h's
// range (none for sets made by NewHistograms).
func (h *Histograms) Merge(o *Histograms) int64 {
	var dropped int64
	for _, t := range tags {
		dropped += h.byTag(t).Merge(o.byTag(t))
	}
	return dropped
}

// Reset empties every histogram.
func (h *Histograms) Reset() {
	for _, t := range tags {
		h.byTag(t).Reset()
	}
}

// Requests is the number of recorded requests.
func (h *Histograms) Requests() int64 { return h.Status.TotalCount() }

// recordLatency records d, clamped into the histogram's range.
func recordLatency(h *hdr.Histogram, d time.Duration) {
	v := int64(d)
	if v < 0 {
		v = 0
	}
	if v > latencyHighest {
		v = latencyHighest
	}
	_ = h.RecordValue(v) // in range by construction
}

func recordStatus(h *hdr.Histogram, status int) {
	if status < 0 || status >= statusHighest {
		status = statusHighest - 1
	}
	_ = h.RecordValue(int64(status))
}

// Percentiles are latency figures in milliseconds.
type Percentiles struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	Max   float64 `json:"max"`
}

// PercentilesOf summarises a latency histogram in milliseconds.
func PercentilesOf(h *hdr.Histogram) Percentiles {
	if h.TotalCount() == 0 {
		return Percentiles{}
	}
	return Percentiles{
		Count: h.TotalCount(),
		Mean:  ms(h.Mean()),
		P50:   ms(float64(h.ValueAtQuantile(50))),
		P90:   ms(float64(h.ValueAtQuantile(90))),
		P95:   ms(float64(h.ValueAtQuantile(95))),
		P99:   ms(float64(h.ValueAtQuantile(99))),
		P999:  ms(float64(h.ValueAtQuantile(99.9))),
		Max:   ms(float64(h.Max())),
	}
}

// ms converts nanoseconds to milliseconds rounded to the microsecond.
func ms(ns float64) float64 { return float64(int64(ns/1e3+0.5)) / 1e3 }

// StatusCounts are the requests by outcome. RateLimited counts every 429;
// with penalties (StatusPenalty recorded) Penalty counts those under a
// penalty and Algorithm the algorithm's own refusals, RateLimited less
// Penalty.
type StatusCounts struct {
	OK              int64            `json:"200"`
	RateLimited     int64            `json:"429"`
	Algorithm       int64            `json:"429_algorithm"`
	Penalty         int64            `json:"429_penalty"`
	Other           int64            `json:"other"`
	TransportErrors int64            `json:"transport_errors"`
	Codes           map[string]int64 `json:"codes"` // every status code seen, "error" for transport errors
}

// Errors is the number of requests that were neither 200 nor 429: other
// statuses and transport errors.
func (s StatusCounts) Errors() int64 { return s.Other + s.TransportErrors }

// StatusCountsOf reads a status histogram.
func StatusCountsOf(h *hdr.Histogram) StatusCounts {
	s := StatusCounts{Codes: map[string]int64{}}
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		// Below 2048 every value has its own bucket at three digits.
		switch code := b.From; code {
		case statusError:
			s.TransportErrors += b.Count
			s.Codes["error"] += b.Count
		case 200:
			s.OK += b.Count
			s.Codes["200"] += b.Count
		case 429:
			s.RateLimited += b.Count
			s.Codes["429"] += b.Count
		case StatusPenalty:
			s.RateLimited += b.Count
			s.Penalty += b.Count
			s.Codes["429"] += b.Count
		default:
			s.Other += b.Count
			s.Codes[strconv.FormatInt(code, 10)] += b.Count
		}
	}
	s.Algorithm = s.RateLimited - s.Penalty
	return s
}
