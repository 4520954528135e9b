package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

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
	cukes := make([]bytes.Buffer, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = Run(ctx, cfg, append(opts, WithOutput(&outs[i]), WithoutReports(), withCucumber(&cukes[i]))...)
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
		dir := cfgs[0].Settings.ReportDir
		if err := writeReports(dir, all); err != nil {
			return all, couldNotRun("write reports: %v", err)
		}
		cuke := filepath.Join(dir, "cucumber.json")
		if err := writeFile(cuke, func(w io.Writer) error { return mergeCucumber(w, cfgs, cukes) }); err != nil {
			return all, couldNotRun("write reports: %v", err)
		}
		fmt.Fprintf(r.out, "reports: %s, %s, %s, %s\n", filepath.Join(dir, "junit.xml"), cuke, filepath.Join(dir, "report.html"), filepath.Join(dir, ConformanceFile))
	}
	return all, nil
}

// mergeCucumber writes the profiles' cucumber JSON documents (arrays of
// features) as one array; each feature's id, uri and name start with its
// profile, so that a feature run by several profiles stays apart.
func mergeCucumber(w io.Writer, cfgs []Config, docs []bytes.Buffer) error {
	all := []map[string]any{}
	for i := range docs {
		if docs[i].Len() == 0 {
			continue
		}
		var features []map[string]any
		if err := json.Unmarshal(docs[i].Bytes(), &features); err != nil {
			return fmt.Errorf("cucumber JSON of PROFILE=%s: %w", cfgs[i].Target.Profile, err)
		}
		p := string(cfgs[i].Target.Profile)
		for _, f := range features {
			for _, k := range []string{"id", "uri"} {
				if v, ok := f[k].(string); ok {
					f[k] = p + "/" + v
				}
			}
			if v, ok := f["name"].(string); ok {
				f["name"] = "[" + p + "] " + v
			}
			all = append(all, f)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	return enc.Encode(all)
}

// AllProfiles are the profiles PROFILE=all runs: every profile with
// scenarios.
func AllProfiles() []profile.Name {
	var out []profile.Name
	for _, p := range profile.Names() {
		if implemented[p] {
			out = append(out, p)
		}
	}
	return out
}
