package fleet

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"time"
)

// Settings every generator of a plan reads (see cmd/loadgen): how many
// generators share the load, the instant their schedule starts, and the
// settings an orchestrator sets to say which generator a replica is.
const (
	EnvGenerators = "GENERATORS"
	EnvIndex      = "GENERATOR_INDEX"
	EnvJobIndex   = "JOB_COMPLETION_INDEX" // Kubernetes Indexed Job, from 0
	EnvSwarmSlot  = "SWARM_TASK_SLOT"      // Docker Swarm's {{.Task.Slot}}, from 1
	EnvStartAt    = "START_AT"
	EnvReportDir  = "REPORT_DIR"
)

// ReportDirIn is REPORT_DIR inside a generator's container, where the
// orchestrator mounts the plan's report directory.
const ReportDirIn = "/reports"

// Plan is one load put on by Generators generators together.
type Plan struct {
	Name       string    // the Swarm service or Kubernetes Job; a DNS label
	Image      string    // holds /loadgen (the harness image, rlspec:latest)
	Generators int       // how many; each takes its share by its index
	StartAt    time.Time // the absolute start every generator waits for
	// Args are the `loadgen run` flags every generator runs with: the
	// target contract's settings and the totals (-rate, -buckets), of which
	// each takes its share.
	Args []string
	// Env is added to every generator's environment; GENERATORS, START_AT
	// and REPORT_DIR are the plan's own.
	Env map[string]string
	// ReportDir is where the generators' reports land on this machine, one
	// directory each (GeneratorDir); Swarm mounts it into every replica.
	ReportDir string
	// Deadline: an orchestrator stops waiting for the generators then.
	Deadline time.Time
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Check says what is wrong with the plan, nil when nothing is.
func (p Plan) Check() error {
	var errs []error
	if !dnsLabel.MatchString(p.Name) {
		errs = append(errs, fmt.Errorf("name %q is not a DNS label (lowercase letters, digits, '-', at most 63)", p.Name))
	}
	if p.Image == "" {
		errs = append(errs, errors.New("no image to run the generators from"))
	}
	if p.Generators < 1 {
		errs = append(errs, fmt.Errorf("GENERATORS=%d must be at least 1", p.Generators))
	}
	if p.StartAt.IsZero() {
		errs = append(errs, errors.New("no start instant"))
	}
	for _, k := range []string{EnvGenerators, EnvIndex, EnvJobIndex, EnvSwarmSlot, EnvStartAt, EnvReportDir} {
		if _, ok := p.Env[k]; ok {
			errs = append(errs, fmt.Errorf("%s is the plan's own setting, not one to pass on", k))
		}
	}
	return errors.Join(errs...)
}

// Command is what every generator runs.
func (p Plan) Command() []string { return append([]string{"/loadgen", "run"}, p.Args...) }

// Environ is every generator's environment, sorted by name: Env and the
// plan's own settings; the orchestrator adds the index.
func (p Plan) Environ() []string {
	env := map[string]string{
		EnvGenerators: fmt.Sprint(p.Generators),
		EnvStartAt:    p.StartAt.UTC().Format(time.RFC3339Nano),
		EnvReportDir:  ReportDirIn,
	}
	for k, v := range p.Env {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// GeneratorDir is generator i's report directory under dir: a generator
// of a plan writes its reports there (cmd/loadgen), the merge reads its
// load.hlog from there.
func GeneratorDir(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("generator-%d", i))
}
