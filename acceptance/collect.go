package acceptance

import (
	"fmt"
	"io"
	"sync"

	"github.com/rlspec/rlspec/steps"
)

// collector records verdicts as scenarios end and prints one progress line
// for each.
type collector struct {
	mu      sync.Mutex
	out     io.Writer
	verbose bool // also a line for each scenario of a feature not claimed
	rs      []steps.ScenarioResult
}

var _ steps.Recorder = (*collector)(nil)

func newCollector(out io.Writer, verbose bool) *collector {
	return &collector{out: out, verbose: verbose}
}

func (c *collector) Record(r steps.ScenarioResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rs = append(c.rs, r)
	if !c.verbose && isNotClaimed(r) {
		return
	}
	line := fmt.Sprintf("[%3d] %-7s %s (%s)", len(c.rs), r.Status, r.Name, r.Duration.Round(10_000_000))
	if r.Status == steps.Skipped {
		line += ": " + r.Reason
	}
	if r.Note != "" {
		line += "; " + r.Note
	}
	fmt.Fprintln(c.out, line)
}

func (c *collector) results() []steps.ScenarioResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]steps.ScenarioResult(nil), c.rs...)
	sortResults(out)
	return out
}
