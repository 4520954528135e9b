package acceptance

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
	"github.com/rlspec/rlspec/steps/scenario"
)

// wantScenarios pins the number of scenarios of each profile (outline
// rows included). Adding or removing a scenario must update it,
// deliberately.
var wantScenarios = map[profile.Name]int{profile.PRD: 41, profile.SlidingLog: 21, profile.FixedWindow: 20}

type memRecorder struct {
	mu sync.Mutex
	rs []steps.ScenarioResult
}

func (m *memRecorder) Record(r steps.ScenarioResult) {
	m.mu.Lock()
	m.rs = append(m.rs, r)
	m.mu.Unlock()
}

// TestFeatures runs the PRD's suite in-process against the embedded
// reference (three instances on one store, so that MI-1 runs) through
// godog's TestSuite: each scenario is a subtest. The
// reference requires the token TARGET_HEADERS carries, so every scenario
// runs (EXT-AUTH-01 included).
func TestFeatures(t *testing.T) {
	t.Parallel()
	runProfile(t, service.DefaultConfig())
}

// TestFeaturesSlidingLog runs profile sliding-log's suite against the
// embedded reference serving it, with a window of seconds.
func TestFeaturesSlidingLog(t *testing.T) {
	t.Parallel()
	tc := service.DefaultConfig()
	tc.Limit, tc.Window = 5, 3*time.Second
	runProfile(t, tc.ForProfile(profile.SlidingLog))
}

// TestFeaturesFixedWindow runs profile fixed-window's suite against the
// embedded reference serving it, for both window alignments.
func TestFeaturesFixedWindow(t *testing.T) {
	for _, align := range []profile.Align{profile.AlignEpoch, profile.AlignFirstRequest} {
		t.Run(string(align), func(t *testing.T) {
			t.Parallel()
			tc := service.DefaultConfig()
			tc.Limit, tc.Window, tc.WindowAlign = 5, 3*time.Second, align
			runProfile(t, tc.ForProfile(profile.FixedWindow))
		})
	}
}

func runProfile(t *testing.T, tc service.Config) {
	tc = tc.ForProfile(tc.Profile)
	if tc.Profile != profile.PRD { // the features of any profile with scenarios there
		tc.Features = append(tc.Features, profile.Penalties, profile.IETFHeaders, profile.Bypass, profile.Tiers)
		tc = tc.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
	}
	tags, _, err := selectScenarios(features.FS, "", tc.Profile)
	if err != nil {
		t.Fatal(err)
	}
	if tags, _, _, err = byAlign(features.FS, tc, tags); err != nil { // the grids' scenarios run under their grid only
		t.Fatal(err)
	}
	tc.Headers.Set("Authorization", "Bearer "+bodytmpl.NewUUID())
	tc.Features = append(tc.Features, profile.Persistence, profile.MultiInstance) // the pair restarts; MI-1 on its replicas
	cfg, pair := startEmbeddedReplicas(t, tc, fault.None, 3)
	env, closeEnv, err := NewEnv(cfg.Target, cfg.Reached)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeEnv)
	env.Store, env.Restarter = pair, pair
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
			Tags:           tags,
			DefaultContext: context.Background(),
			NoColors:       true,
		},
	}.Run()
	// No TestingT: godog would fail the test on a first attempt whose time
	// assumption broke, though the scenario ran again and that run's
	// verdict stands (steps' settle) — the recorded results are the
	// verdicts. A non-zero status with no scenario run again is a real
	// failure (an undefined step, say).
	reran := slices.ContainsFunc(rec.rs, func(r steps.ScenarioResult) bool { return r.Rerun != "" })
	if status != 0 && !reran {
		t.Fatalf("godog status %d", status)
	}
	if len(rec.rs) != wantScenarios[tc.Profile] {
		t.Errorf("%d scenarios of %s ran, want %d: update wantScenarios when scenarios are added or removed", len(rec.rs), tc.Profile, wantScenarios[tc.Profile])
	}
	ids := map[string]bool{}
	for _, r := range rec.rs {
		// FAIL-2 (fail-open) is not claimed by the reference (fail-closed).
		notClaimed := r.Status == steps.Skipped && strings.HasPrefix(r.Reason, "not claimed:") && r.ID == "FAIL-2-01"
		if r.Status == steps.Skipped && strings.Contains(r.Reason, scenario.TimeSkip+" twice") {
			t.Logf("%s: skipped on this (loaded) machine: %s", r.Name, r.Reason) // never a verdict
			notClaimed = true
		}
		if r.Status != steps.Passed && !notClaimed {
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
