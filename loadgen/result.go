package loadgen

import (
	"sync"
	"time"
)

// Meta describes an attack for its report.
type Meta struct {
	Target      string        `json:"target"`
	Mode        string        `json:"mode"` // open or closed
	Rate        float64       `json:"rate"` // requested rate, open loop
	Connections int           `json:"connections"`
	Buckets     int           `json:"buckets"`
	Duration    time.Duration `json:"-"`
	Warmup      time.Duration `json:"-"`
	// Generator is "i/N" when this attack is share i of N generators
	// running one load together (WithStartAt puts them on one timeline).
	Generator string `json:"generator,omitempty"`
	// Penalties: penalties are claimed (FEATURES=penalties) and 429s were
	// read for the penalty marker (HTTPDialer.ReadPenalties).
	Penalties bool `json:"penalties,omitempty"`
	// StartAt is the schedule's absolute start (zero: the attack's own
	// start); StartLag how late after it the attack began.
	StartAt  time.Time     `json:"-"`
	StartLag time.Duration `json:"-"`
}

// Progress is what an attack reports once per interval.
type Progress struct {
	Elapsed  time.Duration // since the start, warm-up included
	Warmup   bool          // still warming up
	Rate     float64       // requests completed per second in the last interval
	P95      float64       // corrected p95 so far, ms
	Requests int64         // measured so far
	Errors   int64         // measured requests neither 200 nor 429
}

// Interval summarises one reporting interval.
type Interval struct {
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	Requests       int64     `json:"requests"`
	Errors         int64     `json:"errors"`
	RateLimited    int64     `json:"rate_limited"`
	Penalty        int64     `json:"rate_limited_penalty,omitempty"` // of RateLimited, under a penalty
	P50            float64   `json:"p50_ms"`
	P95            float64   `json:"p95_ms"`
	P99            float64   `json:"p99_ms"`
	Max            float64   `json:"max_ms"`
	UncorrectedP99 float64   `json:"uncorrected_p99_ms"`
}

func summarise(h *Histograms, start, end time.Time) Interval {
	c := PercentilesOf(h.Corrected)
	s := StatusCountsOf(h.Status)
	return Interval{
		Start: start, End: end, Requests: h.Requests(), Errors: s.Errors(), RateLimited: s.RateLimited, Penalty: s.Penalty,
		P50: c.P50, P95: c.P95, P99: c.P99, Max: c.Max,
		UncorrectedP99: PercentilesOf(h.Uncorrected).P99,
	}
}

// Result is a finished (or interrupted) attack: the merged histograms, the
// per-interval summaries and a few transport error messages.
type Result struct {
	Meta       Meta
	Start, End time.Time // the measured window
	// Late counts the measured requests answered after End: the target fell
	// behind the schedule (0 for merged logs, which cannot tell).
	Late int64
	// QueueEdge counts the measured responses the queue model (WithQueue)
	// decided otherwise: a 200 it refused or a 429 it allowed (none for
	// merged logs, which cannot tell).
	QueueEdge   QueueEdge
	Totals      *Histograms
	Intervals   []Interval
	ErrorSample []string
	Interrupted bool
	// Generators are the merged logs' generators, one per log (MergeLogs).
	Generators []GeneratorRun
}

// recorder is one worker's histograms. The worker records under mu; the
// collector takes the interval's counts under the same lock.
type recorder struct {
	mu     sync.Mutex
	h      *Histograms
	errors []string
	// cutoff is the end of the measured window, set before any request is
	// sent; late counts the responses recorded after it.
	cutoff time.Time
	late   int64
	// edge counts the responses the queue model decided otherwise.
	edge QueueEdge
}

func newRecorder() *recorder { return &recorder{h: NewHistograms()} }

func (r *recorder) record(intended, sent, received time.Time, status int, err error, q queued) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cutoff.IsZero() && received.After(r.cutoff) {
		r.late++
	}
	r.edge.add(r.h.recordQueue(q, received.Sub(intended), status, err))
	recordLatency(r.h.Corrected, received.Sub(intended))
	recordLatency(r.h.Uncorrected, received.Sub(sent))
	if err != nil {
		recordStatus(r.h.Status, statusError)
		if len(r.errors) < maxErrorSamples {
			r.errors = append(r.errors, err.Error())
		}
	} else {
		recordStatus(r.h.Status, status)
	}
}

func (r *recorder) recordLag(d time.Duration) {
	r.mu.Lock()
	recordLatency(r.h.Lag, d)
	r.mu.Unlock()
}

// drain moves r's counts into into and empties r; late is how many of
// them ended after the cutoff.
func (r *recorder) drain(into *Histograms) (errs []string, late int64, edge QueueEdge) {
	r.mu.Lock()
	defer r.mu.Unlock()
	into.Merge(r.h)
	r.h.Reset()
	errs, late, edge = r.errors, r.late, r.edge
	r.errors, r.late, r.edge = nil, 0, QueueEdge{}
	return errs, late, edge
}

// collector merges the worker recorders once per interval.
type collector struct {
	recorders []*recorder
	res       *Result
	log       *hlogFile
	logErr    error
	scratch   *Histograms
}

func (c *collector) collect(start, end time.Time) Interval {
	c.scratch.Reset()
	for _, r := range c.recorders {
		errs, late, edge := r.drain(c.scratch)
		c.res.Late += late
		c.res.QueueEdge.add(edge)
		for _, e := range errs {
			if len(c.res.ErrorSample) < maxErrorSamples {
				c.res.ErrorSample = append(c.res.ErrorSample, e)
			}
		}
	}
	c.res.Totals.Merge(c.scratch)
	iv := summarise(c.scratch, start, end)
	if c.scratch.Requests() == 0 && c.scratch.Lag.TotalCount() == 0 {
		return iv
	}
	c.res.Intervals = append(c.res.Intervals, iv)
	if c.log != nil && c.logErr == nil {
		c.logErr = c.log.interval(c.scratch, start, end)
	}
	return iv
}
