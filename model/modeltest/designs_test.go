package modeltest_test

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/tbrecord"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/model/modeltest"
)

// Teeth of the design suites: each property fails against a design that
// breaks its clause and passes against the design it describes.
func TestCounterPropertiesCatchTheirDefect(t *testing.T) {
	counter := func(n int, w time.Duration) model.Model { return model.WindowCounter{Limit: n, Window: w} }
	mutants := map[string]modeltest.Counter{
		// one more per window than N
		"PerWindow": {New: func(n int, w time.Duration) model.Model { return model.WindowCounter{Limit: n + 1, Window: w} }},
		// a fixed window in disguise: the previous window forgotten
		"WeightedBound": {New: func(n int, w time.Duration) model.Model { return model.Epoch{Limit: n, Window: w} }},
		// half the limit
		"NoOverBlocking": {New: func(n int, w time.Duration) model.Model {
			return model.WindowCounter{Limit: max(n/2, 1), Window: w}
		}},
	}
	for name, p := range modeltest.CounterProperties() {
		if !failsWith(t, func(tb testing.TB) { p(tb, mutants[name]) }) {
			t.Errorf("%s passed against its mutant", name)
		}
		if failsWith(t, func(tb testing.TB) { p(tb, modeltest.Counter{New: counter}) }) {
			t.Errorf("%s failed against the window counter", name)
		}
	}
}

func TestQueuePropertiesCatchTheirDefect(t *testing.T) {
	queue := func(b int, r float64, d int) model.Model { return model.LeakyBucket{Burst: b, Rate: r, Delay: d} }
	mutants := map[string]modeltest.Queue{
		// a fixed sleep instead of spacing: bursts leave as bursts
		"OutputRate": {New: func(b int, r float64, d int) model.Model {
			return wait(model.LeakyBucket{Burst: b, Rate: r, Delay: d}, func(time.Duration) time.Duration { return time.Second })
		}},
		// a queue without bound
		"QueueBound": {New: func(b int, r float64, d int) model.Model {
			return model.LeakyBucket{Burst: b + 1000, Rate: r, Delay: d}
		}},
		// every turn held twice as long
		"NoOverDelay": {New: func(b int, r float64, d int) model.Model {
			return wait(model.LeakyBucket{Burst: b, Rate: r, Delay: d}, func(w time.Duration) time.Duration { return 2*w + 10*time.Millisecond })
		}},
	}
	for name, p := range modeltest.QueueProperties() {
		if !failsWith(t, func(tb testing.TB) { p(tb, mutants[name]) }) {
			t.Errorf("%s passed against its mutant", name)
		}
		if failsWith(t, func(tb testing.TB) { p(tb, modeltest.Queue{New: queue}) }) {
			t.Errorf("%s failed against the leaky bucket", name)
		}
	}
}

func failsWith(t *testing.T, fn func(testing.TB)) bool { return len(tbrecord.Failures(t, fn)) > 0 }

// wait changes the Wait of m's allowed decisions.
func wait(m model.Model, f func(time.Duration) time.Duration) model.Model {
	return step(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		next, d := m.Step(st, req, now)
		if d.Allowed && req.Cost > 0 {
			d.Wait = f(d.Wait)
		}
		return next, d
	})
}
