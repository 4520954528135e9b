package fleet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/loadgen"
)

// fakeOrchestrator "runs" a plan by writing an interval log of n requests
// for each generator listed in logged, and returns outcomes as given.
type fakeOrchestrator struct {
	logged   map[int]int64
	outcomes []Outcome
	err      error
}

func (f fakeOrchestrator) Run(_ context.Context, p Plan) ([]Outcome, error) {
	for i, n := range f.logged {
		if err := writeLog(p, i, n); err != nil {
			return nil, err
		}
	}
	return f.outcomes, f.err
}

// writeLog writes generator i's log: n requests of 1 ms, all 200, begun
// i ms after the start instant.
func writeLog(p Plan, i int, n int64) error {
	h := loadgen.NewHistograms()
	for range n {
		_ = h.Corrected.RecordValue(int64(time.Millisecond))
		_ = h.Uncorrected.RecordValue(int64(time.Millisecond))
		_ = h.Status.RecordValue(200)
	}
	start := p.StartAt.Add(time.Second)
	res := &loadgen.Result{
		Meta:   loadgen.Meta{Mode: "open", Generator: fmt.Sprintf("%d/%d", i, p.Generators), StartAt: p.StartAt, StartLag: time.Duration(i) * time.Millisecond},
		Start:  start,
		End:    start.Add(time.Second),
		Totals: h,
	}
	dir := GeneratorDir(p.ReportDir, i)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "load.hlog"))
	if err != nil {
		return err
	}
	defer f.Close()
	return loadgen.WriteHlog(f, res)
}

func testPlan(t *testing.T, n int) Plan {
	return Plan{Name: "rlspec-load-test", Image: "rlspec:latest", Generators: n,
		StartAt: time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC), ReportDir: t.TempDir()}
}

// TestLoadReportsADeadGenerator: a generator whose task failed is listed
// with its error and its logged requests stay in the totals; one that
// never ran and one that left no log are listed too. None is dropped.
func TestLoadReportsADeadGenerator(t *testing.T) {
	p := testPlan(t, 4)
	o := fakeOrchestrator{
		logged: map[int]int64{0: 100, 1: 40},
		outcomes: []Outcome{
			{Index: 0, Name: "g.1"},
			{Index: 1, Name: "g.2", Err: errors.New("task failed, exit status 137")},
			{Index: 2, Name: "g.3"}, // finished, but no log
		},
	}
	res, err := Load(context.Background(), o, p, loadgen.Meta{Mode: "open", Rate: 400})
	if err != nil {
		t.Fatal(err)
	}
	rep := loadgen.NewReport(res, nil)
	if rep.Requests != 140 {
		t.Errorf("requests %d, want 140: the dead generator's 40 stay in the totals", rep.Requests)
	}
	if len(rep.Generators) != 4 {
		t.Fatalf("%d generators listed, want 4", len(rep.Generators))
	}
	want := []string{"", "exit status 137", "no interval log", "never ran"}
	for i, g := range rep.Generators {
		if want[i] == "" && g.Error != "" || !strings.Contains(g.Error, want[i]) {
			t.Errorf("generator %d: error %q, want %q", i, g.Error, want[i])
		}
	}
	if rep.Pass || len(rep.FailedGenerators()) != 3 {
		t.Errorf("pass %v with %d failed generators, want false and 3", rep.Pass, len(rep.FailedGenerators()))
	}
	props := map[string]string{}
	for _, pr := range rep.JUnit().Properties {
		props[pr.Name] = pr.Value
	}
	if props["generators"] != "4" || props["generators_failed"] != "3" {
		t.Errorf("junit properties %v, want 4 generators, 3 failed", props)
	}
	if !strings.Contains(rep.Summary(), "generator 1/4 FAILED: task failed, exit status 137") {
		t.Errorf("summary does not name the dead generator:\n%s", rep.Summary())
	}
}

// TestLoadAllFinished: every generator finished; the report passes and the
// start skew is the spread of their start lags (0, 1, 2 ms).
func TestLoadAllFinished(t *testing.T) {
	p := testPlan(t, 3)
	o := fakeOrchestrator{logged: map[int]int64{0: 10, 1: 10, 2: 10},
		outcomes: []Outcome{{Index: 0}, {Index: 1}, {Index: 2}}}
	res, err := Load(context.Background(), o, p, loadgen.Meta{Mode: "open", Rate: 30})
	if err != nil {
		t.Fatal(err)
	}
	rep := loadgen.NewReport(res, nil)
	if !rep.Pass || rep.Requests != 30 || rep.StartSkewMs != 2 {
		t.Errorf("pass %v requests %d skew %v ms, want true 30 2", rep.Pass, rep.Requests, rep.StartSkewMs)
	}
}

// TestLoadInterrupted: an orchestrator that fails after starting still
// has its generators merged, the result marked interrupted.
func TestLoadInterrupted(t *testing.T) {
	p := testPlan(t, 2)
	o := fakeOrchestrator{logged: map[int]int64{0: 5}, outcomes: []Outcome{{Index: 0}, {Index: 1, Err: errors.New("still running")}}, err: context.Canceled}
	res, err := Load(context.Background(), o, p, loadgen.Meta{})
	if !errors.Is(err, context.Canceled) || res == nil || !res.Interrupted || res.Totals.Requests() != 5 {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestPlanCheck(t *testing.T) {
	p := testPlan(t, 2)
	p.Name = "Not_A_Label"
	p.Env = map[string]string{"START_AT": "x"}
	err := p.Check()
	if err == nil || !strings.Contains(err.Error(), "DNS label") || !strings.Contains(err.Error(), "START_AT is the plan's own") {
		t.Fatalf("%v", err)
	}
}
