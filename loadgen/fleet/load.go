package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rlspec/rlspec/loadgen"
)

// Orchestrator starts a plan's generators and waits until each has ended
// (or the context or the plan's deadline ends the wait).
type Orchestrator interface {
	// Run returns one Outcome per generator it knows of. An error means the
	// run as a whole failed (could not start, interrupted); outcomes
	// returned with it are still merged.
	Run(ctx context.Context, p Plan) ([]Outcome, error)
}

// Outcome is how one generator ended.
type Outcome struct {
	Index int    // from 0
	Name  string // the replica or pod, for the report
	// Err is why the generator did not finish (a non-zero exit, a task
	// the orchestrator failed, still running at the deadline); nil when it
	// finished.
	Err error
}

// Load runs p on o and merges the generators' interval logs
// (GeneratorDir(p.ReportDir, i)/load.hlog) into one result labelled with
// meta (the totals: target, rate, buckets). Every generator is listed in
// Result.Generators; one that failed, never ran or left no log carries its
// error, its logged requests in the totals. Interrupted is set when Run
// failed after starting.
func Load(ctx context.Context, o Orchestrator, p Plan, meta loadgen.Meta) (*loadgen.Result, error) {
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	outcomes, runErr := o.Run(ctx, p)
	if runErr != nil && len(outcomes) == 0 {
		return nil, runErr
	}
	res := Merge(p, outcomes, meta)
	res.Interrupted = runErr != nil
	return res, runErr
}

// Merge reads every generator's log under p.ReportDir and merges them,
// with the outcomes' errors; a generator without an outcome did not run.
func Merge(p Plan, outcomes []Outcome, meta loadgen.Meta) *loadgen.Result {
	byIndex := map[int]Outcome{}
	for _, o := range outcomes {
		byIndex[o.Index] = o
	}
	logs := make([]*loadgen.Log, 0, p.Generators)
	for i := range p.Generators {
		l, err := readLog(filepath.Join(GeneratorDir(p.ReportDir, i), "load.hlog"))
		o, ran := byIndex[i]
		var problems []string
		switch {
		case !ran:
			problems = append(problems, "never ran")
		case o.Err != nil:
			problems = append(problems, o.Err.Error())
		}
		if err != nil {
			problems = append(problems, err.Error())
			l = &loadgen.Log{}
		}
		l.Generator.Name = o.Name
		if l.Generator.Name == "" {
			l.Generator.Name = fmt.Sprintf("generator %d", i)
		}
		if l.Generator.Generator == "" {
			l.Generator.Generator = fmt.Sprintf("%d/%d", i, p.Generators)
		}
		l.Generator.Error = strings.Join(problems, "; ")
		logs = append(logs, l)
	}
	res := loadgen.MergeLogs(logs, time.Second)
	res.Meta = meta
	return res
}

func readLog(path string) (*loadgen.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no interval log: %w", err)
	}
	defer f.Close()
	return loadgen.ReadHlog(f)
}
