package loadgen

import (
	"fmt"

	"github.com/rlspec/rlspec/internal/junit"
)

// JUnit is the run as JUnit: one case per threshold (failed when breached,
// with the actual figure), the throughput, rates and 429s (apart by their
// cause with penalties) as properties.
func (r *Report) JUnit() junit.Suite {
	s := junit.Suite{Name: "rlspec load: " + r.Target, Started: r.Start, Elapsed: r.End.Sub(r.Start), Properties: []junit.Property{
		junit.Prop("mode", r.Mode), junit.Prop("requests", r.Requests),
		junit.Prop("throughput_rps", fmt.Sprintf("%.1f", r.AchievedRate)), junit.Prop("scheduled_rps", r.ScheduledRate),
		junit.Prop("answered_late", r.AnsweredLate), junit.Prop("behind", r.Behind),
		junit.Prop("latency_p95_ms", r.LatencyMs.P95), junit.Prop("latency_p99.9_ms", r.LatencyMs.P999),
	}}
	s.Properties = append(s.Properties, junit.Prop("status_429", r.ByStatus.RateLimited))
	if r.Penalties {
		s.Properties = append(s.Properties, junit.Prop("status_429_algorithm", r.ByStatus.Algorithm), junit.Prop("status_429_penalty", r.ByStatus.Penalty))
	}
	if len(r.Generators) > 0 {
		s.Properties = append(s.Properties, junit.Prop("generators", len(r.Generators)),
			junit.Prop("generators_failed", len(r.FailedGenerators())), junit.Prop("start_skew_ms", r.StartSkewMs))
	}
	for _, v := range r.Thresholds {
		c := junit.Case{Name: "threshold " + v.Expr, Classname: "rlspec.load",
			Properties: []junit.Property{junit.Prop("actual", fmt.Sprintf("%g %s", v.Actual, v.Unit))}}
		if !v.Pass {
			msg := fmt.Sprintf("%s breached: actual %g %s", v.Expr, v.Actual, v.Unit)
			c.Failure = &junit.Problem{Message: msg, Type: "Threshold", Text: msg}
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}
