package racehunt

import (
	"fmt"
	"time"
)

// DefaultProgress is how often a hunt says how far it is.
const DefaultProgress = 10 * time.Second

// progress writes one plain line per interval while a hunt runs (a CI log
// shows it as it comes; a hunt of 100 workloads takes minutes): workloads
// done of the total, requests, elapsed time and, while searching, the time
// left at the pace so far.
type progress struct {
	every time.Duration // <= 0: no lines
	total int
	start time.Time
	next  time.Time
	now   func() time.Time
	logf  func(format string, args ...any)
}

func newProgress(every time.Duration, total int, now func() time.Time, logf func(string, ...any)) *progress {
	start := now()
	return &progress{every: every, total: total, start: start, next: start.Add(every), now: now, logf: logf}
}

// tick is called after each workload; it writes a line when the interval
// has passed since the last one.
func (p *progress) tick(done, requests int, shrinking bool) {
	if p.every <= 0 {
		return
	}
	now := p.now()
	if now.Before(p.next) {
		return
	}
	p.next = now.Add(p.every)
	elapsed := now.Sub(p.start)
	line := fmt.Sprintf("progress: %d/%d workloads, %d requests, %s", min(done, p.total), p.total, requests, elapsed.Round(time.Second))
	switch {
	case shrinking:
		line += ", shrinking a failing workload"
	case done > 0 && done < p.total:
		left := time.Duration(float64(elapsed) / float64(done) * float64(p.total-done))
		line += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	p.logf("%s", line)
}
