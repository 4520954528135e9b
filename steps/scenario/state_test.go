package scenario

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/rlspec/rlspec/clause"
)

// recordFunc is a Recorder that hands each verdict to a function.
type recordFunc func(ScenarioResult)

func (f recordFunc) Record(r ScenarioResult) { f(r) }

func godogScenario(name string, tags ...string) *godog.Scenario {
	sc := &godog.Scenario{Name: name}
	for _, tag := range tags {
		sc.Tags = append(sc.Tags, &messages.PickleTag{Name: tag})
	}
	return sc
}

// A violation's verdict passes through the step sets' hooks: cleanups run
// first, then Explain adds to it, and Attribute gives its root cause; a
// violation no hook gave a cause is caused by its check.
func TestHooksShapeAViolation(t *testing.T) {
	for _, withCause := range []bool{true, false} {
		var got ScenarioResult
		var order []string
		env := &Env{Recorder: recordFunc(func(r ScenarioResult) { got = r })}
		set := func(st *State, sc Stepper) {
			st.OnFinish(func() { order = append(order, "finish") })
			st.Explain(func(v *Violation) { order = append(order, "explain"); v.Actual += "; explained" })
			if withCause {
				st.Attribute(func(v *Violation, tags clause.Refs) { v.Cause = "the cause of " + tags.String() })
			}
			sc.Step(`^the target breaks AC(\d+)$`, func(n int) error {
				return Violate(clause.Of(clause.AC3), "check", "this", "that")
			})
		}
		Run(context.Background(), env, godogScenario("X-01 [AC3] x", clause.AC3.Tag(), "@id:X-01"), []string{"the target breaks AC3"}, set)
		if got.Status != Failed || got.FailedStep != 1 || !strings.Contains(got.Violation.Actual, "; explained") ||
			strings.Join(order, ",") != "finish,explain" {
			t.Fatalf("cause hook %v: %s step %d %q, hooks %v", withCause, got.Status, got.FailedStep, got.Reason, order)
		}
		want := "AC3: check"
		if withCause {
			want = "the cause of AC3"
		}
		if got.Cause != want {
			t.Errorf("cause %q, want %q", got.Cause, want)
		}
	}
}

// A scenario whose time assumption breaks is run once more on a fresh
// State (its step sets called again); when it breaks again the verdict is
// SKIPPED with both reasons, never the failure it rested on.
func TestBrokenAssumptionRerunsThenSkips(t *testing.T) {
	var got ScenarioResult
	env := &Env{Recorder: recordFunc(func(r ScenarioResult) { got = r })}
	fresh := 0
	set := func(st *State, sc Stepper) {
		fresh++
		sc.Step(`^a check on one window$`, func() error {
			st.Assume("one window", func() string { return "it took too long" })
			return errors.New("a failure resting on it")
		})
	}
	Run(context.Background(), env, godogScenario("X-02 x", "@id:X-02"), []string{"a check on one window"}, set)
	if fresh != 2 || got.Status != Skipped || !strings.Contains(got.Reason, "broke twice") || got.Rerun == "" {
		t.Fatalf("step sets made %d times, %s %q (rerun %q)", fresh, got.Status, got.Reason, got.Rerun)
	}
}
