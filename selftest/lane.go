package selftest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// refJob is one suite of a reference run: profile p's suite, served as sv.
type refJob struct {
	run int
	p   profile.Name
	sv  serving
}

// acceptanceLane runs the acceptance suites, c.parallel at a time: first
// every reference run's suites, one per profile and serving, then each
// fault's. A fault's suite waits for its profile's reference suites of the
// first run, from which WithFocus picks its scenarios. A reference run's
// result is the sum of its suites; its line is said when the last is done.
func acceptanceLane(ctx context.Context, m *Matrix, ps []profile.Name, info map[fault.Name]fault.Fault, c config, say func(string, ...any), fail func(error)) {
	var refs []refJob
	for i := range m.Reference {
		for _, p := range ps {
			for _, sv := range referenceServings(p) {
				refs = append(refs, refJob{run: i, p: p, sv: sv})
			}
		}
	}
	var (
		mu     sync.Mutex
		sums   = make([]AcceptanceResult, len(m.Reference))
		left   = make([]int, len(m.Reference))
		leftOf = map[profile.Name]int{}
		ready  = map[profile.Name]chan struct{}{}
	)
	for i := range sums {
		sums[i] = newAcceptanceResult()
	}
	m.SuiteTime = map[profile.Name]time.Duration{}
	for _, p := range ps {
		ready[p] = make(chan struct{})
	}
	for _, j := range refs {
		left[j.run]++
		if j.run == 0 {
			leftOf[j.p]++
		}
	}
	runRef := func(j refJob) {
		r, err := runAcceptance(ctx, fault.None, j.p, j.sv, "", c)
		if err == nil {
			c.focus.record(j.p, r)
		}
		mu.Lock()
		defer mu.Unlock()
		m.SuiteTime[j.p] += r.Elapsed
		if err != nil {
			fail(fmt.Errorf("acceptance against the reference (run %d): profile %s: %w", j.run+1, j.p, err))
		} else {
			sums[j.run].add(r)
		}
		if j.run == 0 {
			if leftOf[j.p]--; leftOf[j.p] == 0 {
				close(ready[j.p])
			}
		}
		if left[j.run]--; left[j.run] == 0 && err == nil && ctx.Err() == nil {
			s := sums[j.run]
			s.sortIDs()
			m.Reference[j.run].Acceptance = s
			say("reference run %d/%d: acceptance %d passed, %d failed, %d skipped (%s)", j.run+1, len(m.Reference), s.Passed, s.Failed, s.Skipped, s.Elapsed.Round(time.Millisecond))
		}
	}
	runRow := func(row *Row) {
		select {
		case <-ready[profileOf(info[row.Fault].Profile)]:
		case <-ctx.Done():
			return
		}
		if ctx.Err() != nil {
			return
		}
		if c.detect > 1 {
			if err := detect(ctx, row, info[row.Fault], c); err != nil {
				fail(fmt.Errorf("acceptance against fault %s: %w", row.Fault, err))
			}
			say("%s: detection %s", row.Fault, row.detectionLine())
			return
		}
		r, err := runFault(ctx, row, info[row.Fault], c)
		if err != nil {
			fail(fmt.Errorf("acceptance against fault %s: %w", row.Fault, err))
			return
		}
		row.Acceptance, row.Missed = r, missedBy(row.Scenarios, r)
		mu.Lock()
		m.SuiteTime[profileOf(info[row.Fault].Profile)] += r.Elapsed
		mu.Unlock()
		say("%s: acceptance %d scenario(s) failed (%s)", row.Fault, r.Failed, r.Elapsed.Round(time.Millisecond))
	}

	jobs := make(chan func())
	var workers sync.WaitGroup
	for range c.parallel {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for job := range jobs {
				job()
			}
		}()
	}
	for _, j := range refs {
		if ctx.Err() != nil {
			break
		}
		jobs <- func() { runRef(j) }
	}
	for i := range m.Rows {
		if ctx.Err() != nil {
			break
		}
		row := &m.Rows[i]
		jobs <- func() { runRow(row) }
	}
	close(jobs)
	workers.Wait()
}

// add sums r into a: counts, ids, skip reasons and suite time.
func (a *AcceptanceResult) add(r AcceptanceResult) {
	a.Passed, a.Failed, a.Skipped = a.Passed+r.Passed, a.Failed+r.Failed, a.Skipped+r.Skipped
	a.PassedIDs = append(a.PassedIDs, r.PassedIDs...)
	a.FailedIDs = append(a.FailedIDs, r.FailedIDs...)
	a.SkippedIDs = append(a.SkippedIDs, r.SkippedIDs...)
	maps.Copy(a.SkipReasons, r.SkipReasons)
	maps.Copy(a.FailReasons, r.FailReasons)
	a.Elapsed += r.Elapsed
}

// sortIDs sorts a's ids and drops repeats (a scenario several servings ran).
func (a *AcceptanceResult) sortIDs() {
	for _, ids := range []*[]string{&a.PassedIDs, &a.FailedIDs, &a.SkippedIDs} {
		slices.Sort(*ids)
		*ids = slices.Compact(*ids)
	}
}
