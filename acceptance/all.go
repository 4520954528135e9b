package acceptance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// RunAll runs several profiles' suites at once (PROFILE=all), each against
// its own target, and reports them as one run: their progress and tables
// one after another, one set of reports and one conformance.json. name
// names the implementation in the reports.
func RunAll(ctx context.Context, cfgs []Config, name string, opts ...Option) (*Report, error) {
	r := &runner{out: io.Discard, reports: true}
	for _, o := range opts {
		o(r)
	}
	start := time.Now()
	reps := make([]*Report, len(cfgs))
	outs := make([]bytes.Buffer, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = Run(ctx, cfg, append(opts, WithOutput(&outs[i]), WithoutReports())...)
		}()
	}
	wg.Wait()
	all := &Report{Target: name}
	for i := range cfgs {
		_, _ = r.out.Write(outs[i].Bytes())
		if errs[i] != nil {
			return nil, couldNotRun("PROFILE=%s: %v", cfgs[i].Target.Profile, errs[i])
		}
		all.Results = append(all.Results, reps[i].Results...)
		all.Runs = append(all.Runs, reps[i].Runs...)
		all.Strict = all.Strict || reps[i].Strict
	}
	all.Elapsed = time.Since(start)
	fmt.Fprintf(r.out, "\nPROFILE=all: %d profiles, %d scenarios: %d passed, %d failed, %d skipped in %s\n", len(cfgs), len(all.Results),
		all.Count(steps.Passed), all.Count(steps.Failed), all.Count(steps.Skipped), all.Elapsed.Round(time.Millisecond))
	if r.reports && len(cfgs) > 0 {
		dir := cfgs[0].Target.ReportDir
		if err := writeReports(dir, all); err != nil {
			return all, couldNotRun("write reports: %v", err)
		}
		fmt.Fprintf(r.out, "reports: %s, %s, %s\n", filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.html"), filepath.Join(dir, ConformanceFile))
	}
	return all, nil
}

// AllProfiles are the profiles PROFILE=all runs: every profile with
// scenarios.
func AllProfiles() []service.Profile {
	var out []service.Profile
	for _, p := range service.Profiles() {
		if implemented[p] {
			out = append(out, p)
		}
	}
	return out
}
