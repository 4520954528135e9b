package acceptance

import (
	"context"
	"io"
	"sync"
	"testing"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/steps"
	"github.com/rlspec/rlspec/target"
)

// wantScenarios pins the number of scenarios (outline rows included).
// Adding or removing a scenario must update it, deliberately.
const wantScenarios = 35

type memRecorder struct {
	mu sync.Mutex
	rs []steps.ScenarioResult
}

func (m *memRecorder) Record(r steps.ScenarioResult) {
	m.mu.Lock()
	m.rs = append(m.rs, r)
	m.mu.Unlock()
}

// TestFeatures runs the whole suite in-process against the embedded
// reference through godog's TestSuite: each scenario is a subtest.
func TestFeatures(t *testing.T) {
	tc := target.DefaultConfig()
	emb, err := StartEmbedded(tc, fakeserver.FaultNone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	env, closeEnv, err := NewEnv(emb.Config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeEnv)
	rec := &memRecorder{}
	env.Recorder = rec
	status := godog.TestSuite{
		Name:                "rlspec",
		ScenarioInitializer: steps.Initializer(env),
		Options: &godog.Options{
			Format:         "progress",
			Output:         io.Discard,
			FS:             features.FS,
			Paths:          []string{"."},
			Strict:         true,
			Concurrency:    8,
			TestingT:       t,
			DefaultContext: context.Background(),
			NoColors:       true,
		},
	}.Run()
	if status != 0 {
		t.Fatalf("godog status %d", status)
	}
	if len(rec.rs) != wantScenarios {
		t.Errorf("%d scenarios ran, want %d: update wantScenarios when scenarios are added or removed", len(rec.rs), wantScenarios)
	}
	ids := map[string]bool{}
	for _, r := range rec.rs {
		if r.Status != steps.Passed {
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Reason)
		}
		if r.ID == "" || ids[r.ID] {
			t.Errorf("%s: missing or duplicate id %q", r.Name, r.ID)
		}
		ids[r.ID] = true
		if len(r.Clauses) == 0 {
			t.Errorf("%s: no clause tag", r.Name)
		}
	}
}
