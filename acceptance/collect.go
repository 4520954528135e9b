package acceptance

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rlspec/rlspec/steps"
)

// collector records verdicts as scenarios end and prints one progress line
// for each.
type collector struct {
	mu      sync.Mutex
	out     io.Writer
	verbose bool // also a line for each scenario of a feature not claimed
	rs      []steps.ScenarioResult
	// the progress: lines printed of total, time since start
	printed, total int
	start          time.Time
	now            func() time.Time
}

var _ steps.Recorder = (*collector)(nil)

// newCollector prints to out a line per scenario of total, numbered, with
// the time since start by now.
func newCollector(out io.Writer, verbose bool, total int, now func() time.Time) *collector {
	return &collector{out: out, verbose: verbose, total: total, start: now(), now: now}
}

func (c *collector) Record(r steps.ScenarioResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rs = append(c.rs, r)
	if !c.verbose && isNotClaimed(r) {
		return
	}
	c.printed++
	line := fmt.Sprintf("[%3d/%d %s] %-7s %s (%s)", c.printed, max(c.total, c.printed), c.now().Sub(c.start).Round(time.Second), r.Status, r.Name, r.Duration.Round(10_000_000))
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
