package model_test

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/model/modeltest"
)

// TestConformance runs the suite against every model.
func TestConformance(t *testing.T) {
	for name, s := range map[string]modeltest.Subject{
		"prd":         {New: func(n int, w time.Duration) model.Model { return model.PRD{Limit: n, Window: w} }},
		"sliding-log": {New: func(n int, w time.Duration) model.Model { return model.SlidingLog{Limit: n, Window: w} }},
		"epoch":       {New: func(n int, w time.Duration) model.Model { return model.Epoch{Limit: n, Window: w} }},
		"key-grid":    {New: func(n int, w time.Duration) model.Model { return model.KeyGrid{Limit: n, Window: w} }},
		"grid":        {New: func(n int, w time.Duration) model.Model { return model.Grid{Limit: n, Window: w, Anchor: 7} }},
		"window-counter": {New: func(n int, w time.Duration) model.Model {
			return model.WindowCounter{Limit: n, Window: w}
		}},
		"token-bucket": {New: func(n int, w time.Duration) model.Model {
			return model.TokenBucket{Burst: n, Rate: float64(n) / w.Seconds()} // n tokens refilled per window
		}},
		"leaky-bucket": {New: func(n int, w time.Duration) model.Model {
			return model.LeakyBucket{Burst: n - 1, Rate: float64(n) / w.Seconds()} // n at once, n drained per window
		}},
		"leaky-bucket-nodelay": {New: func(n int, w time.Duration) model.Model {
			return model.LeakyBucket{Burst: n - 1, Rate: float64(n) / w.Seconds(), NoDelay: true}
		}},
		"flag-off": {New: func(n int, w time.Duration) model.Model { return model.FlagOff{Limit: n, Window: w, Sentinel: 999} },
			Unlimited: true},
	} {
		t.Run(name, func(t *testing.T) { modeltest.Run(t, s) })
	}
}

// TestDesigns runs the design suites against the designs they describe.
func TestDesigns(t *testing.T) {
	t.Run("window-counter", func(t *testing.T) {
		modeltest.RunCounter(t, modeltest.Counter{New: func(n int, w time.Duration) model.Model { return model.WindowCounter{Limit: n, Window: w} }})
	})
	t.Run("leaky-bucket", func(t *testing.T) {
		modeltest.RunQueue(t, modeltest.Queue{New: func(b int, r float64, d int) model.Model { return model.LeakyBucket{Burst: b, Rate: r, Delay: d} }})
	})
}
