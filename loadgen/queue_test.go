package loadgen

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// A burst on one key at one instant: the k-th allowed request (from 0)
// waits k/R, the B+2-th is refused; another key's queue is its own, and
// the queue drains as the fake clock moves on.
func TestKeyQueueBurstWaitsItsTurn(t *testing.T) {
	const burst, rate = 4, 2.0
	q := newKeyQueue(model.LeakyBucket{Burst: burst, Rate: rate})
	clk := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	for k := range burst + 1 {
		got := q.step(7, clk)
		want := time.Duration(float64(k) / rate * float64(time.Second))
		if !got.modelled || !got.allowed || got.wait != want {
			t.Fatalf("request %d of the burst: %+v, want allowed after %v", k, got, want)
		}
	}
	// Refused, with the last place's wait should the target have had it.
	if got, want := q.step(7, clk), time.Duration(burst/rate*float64(time.Second)); !got.modelled || got.allowed || got.wait != want {
		t.Fatalf("request %d of the burst: %+v, want refused, last place's wait %v", burst+1, got, want)
	}
	if got := q.step(8, clk); !got.allowed || got.wait != 0 {
		t.Fatalf("first request of another key: %+v, want allowed at once", got)
	}
	if err := clk.SleepUntil(context.Background(), clk.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	// One second on, two of the five have drained: the next waits its turn
	// after the three left, (B+1)/R − 1 s.
	if got, want := q.step(7, clk), time.Duration(float64(burst+1)/rate*float64(time.Second))-time.Second; !got.allowed || got.wait != want {
		t.Fatalf("after 1 s: %+v, want allowed after %v", got, want)
	}
}

// Without a model nothing is modelled and nothing recorded.
func TestKeyQueueNone(t *testing.T) {
	var q *keyQueue = newKeyQueue(nil)
	if got := q.step(0, &fakeClock{}); got.modelled {
		t.Fatalf("no model: %+v", got)
	}
	h := NewHistograms()
	if h.recordQueue(queued{}, time.Second, 200, nil) != (QueueEdge{}) || h.Queue.TotalCount()+h.Service.TotalCount() != 0 {
		t.Fatal("recorded a queue that is not modelled")
	}
}

// The queueing delay of a 200 is its wait (a 200 the model refused: the
// last place's) and the service latency the latency less it; a refusal and
// a transport error have no queueing delay and their whole latency is
// service.
func TestRecordQueue(t *testing.T) {
	h := NewHistograms()
	allowed := queued{modelled: true, allowed: true, wait: 1500 * time.Millisecond}
	refused := queued{modelled: true, wait: 1500 * time.Millisecond}
	cases := []struct {
		q      queued
		status int
		err    error
		edge   QueueEdge
	}{
		{allowed, 200, nil, QueueEdge{}},
		{refused, 429, nil, QueueEdge{}},
		{allowed, 0, errors.New("reset"), QueueEdge{}},
		{refused, 200, nil, QueueEdge{Allowed: 1}},
		{allowed, 429, nil, QueueEdge{Refused: 1}},
	}
	for i, c := range cases {
		if got := h.recordQueue(c.q, 1502*time.Millisecond, c.status, c.err); got != c.edge {
			t.Errorf("case %d: edge %+v, want %+v", i, got, c.edge)
		}
	}
	if n, lo, hi := h.Queue.TotalCount(), h.Queue.Min(), h.Queue.Max(); n != 2 || !h.Queue.ValuesAreEquivalent(lo, int64(1500*time.Millisecond)) || !h.Queue.ValuesAreEquivalent(hi, lo) {
		t.Errorf("queue: %d values in [%v, %v]; want the two 200s' 1.5s", n, time.Duration(lo), time.Duration(hi))
	}
	if n := h.Service.Max(); !h.Service.ValuesAreEquivalent(n, int64(1502*time.Millisecond)) {
		t.Errorf("service max %v, want the refusals' whole 1.502 s", time.Duration(n))
	}
	if n := h.Service.TotalCount(); n != int64(len(cases)) {
		t.Errorf("service: %d values, want %d", n, len(cases))
	}
	if v := h.Service.Min(); !h.Service.ValuesAreEquivalent(v, int64(2*time.Millisecond)) {
		t.Errorf("service min %v, want 2ms (1.502 s less the 1.5 s queue)", time.Duration(v))
	}
}

// The report shows the queue and the service latency beside the latency,
// and thresholds name either.
func TestReportQueueAndThresholds(t *testing.T) {
	res := &Result{Meta: Meta{Mode: "open", Rate: 10}, Totals: NewHistograms(), Start: time.Unix(0, 0), End: time.Unix(1, 0)}
	for k := range 5 {
		wait := time.Duration(k) * 500 * time.Millisecond
		recordStatus(res.Totals.Status, 200)
		recordLatency(res.Totals.Corrected, wait+time.Millisecond)
		res.Totals.recordQueue(queued{modelled: true, allowed: true, wait: wait}, wait+time.Millisecond, 200, nil)
	}
	th, err := ParseThresholds("p99<1s;service_p99<5ms;queue_max>=2s;service_p999<5ms")
	if err != nil {
		t.Fatal(err)
	}
	r := NewReport(res, th)
	if r.QueueDelayMs == nil || r.ServiceLatencyMs == nil {
		t.Fatalf("no queue figures: %+v", r)
	}
	pass := []bool{false, true, true, true}
	for i, v := range r.Thresholds {
		if v.Pass != pass[i] {
			t.Errorf("%s: pass %v (actual %g), want %v", v.Expr, v.Pass, v.Actual, pass[i])
		}
	}
	for _, want := range []string{"queueing delay ", "service latency ", "prescribed for the 5 responses answered 200"} {
		if !strings.Contains(r.Summary(), want) {
			t.Errorf("summary lacks %q:\n%s", want, r.Summary())
		}
	}
}

// Without a queue service_ thresholds read the latency and the report has
// no queue figures.
func TestReportNoQueue(t *testing.T) {
	res := &Result{Meta: Meta{Mode: "open", Rate: 10}, Totals: NewHistograms(), Start: time.Unix(0, 0), End: time.Unix(1, 0)}
	recordStatus(res.Totals.Status, 200)
	recordLatency(res.Totals.Corrected, 10*time.Millisecond)
	th, err := ParseThresholds("service_p50<5ms")
	if err != nil {
		t.Fatal(err)
	}
	r := NewReport(res, th)
	if r.QueueDelayMs != nil || r.Thresholds[0].Pass || strings.Contains(r.Summary(), "queueing delay") {
		t.Fatalf("no queue: queue %v, service_p50<5ms pass %v on a 10 ms latency\n%s", r.QueueDelayMs, r.Thresholds[0].Pass, r.Summary())
	}
}
