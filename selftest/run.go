package selftest

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/internal/overload"
)

// Run runs the matrix: the acceptance suite against the reference and each
// fault (WithParallel suites at a time, the embedded reference with
// TARGET_DB seeding; see acceptanceLane), and
// the race hunt against the reference and each concurrency fault, in a
// second lane alongside. An error means the matrix could not run (a suite
// that could not start, an interrupt); a caught or missed fault is in the
// Matrix, not an error.
func Run(ctx context.Context, opts ...Option) (*Matrix, error) {
	c := config{runs: 1, raceChecks: DefaultRaceChecks, progress: io.Discard}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, fmt.Errorf("selftest: %w", err)
		}
	}
	c.parallel = c.suitesAtOnce()
	all, err := Expectations()
	if err != nil {
		return nil, err
	}
	info := map[fault.Name]fault.Fault{}
	for _, fi := range faults.All() {
		info[fi.Name] = fi
	}
	ps := c.suiteProfiles()
	var exps []Expectation
	if c.faults == nil {
		for _, e := range all {
			if slices.Contains(ps, profileOf(info[e.Fault].Profile)) {
				exps = append(exps, e)
			}
		}
	} else {
		for _, f := range c.faults {
			i := slices.IndexFunc(all, func(e Expectation) bool { return e.Fault == f })
			if i < 0 {
				return nil, fmt.Errorf("selftest: unknown fault %q", f)
			}
			if p := profileOf(info[f].Profile); !slices.Contains(ps, p) {
				return nil, fmt.Errorf("selftest: fault %s belongs to profile %s, which is not among the profiles selected", f, p)
			}
			exps = append(exps, all[i])
		}
	}

	start := time.Now()
	m := &Matrix{RaceChecks: c.raceChecks, Store: c.store, Profiles: c.profiles}
	if m.Store == "" {
		m.Store = fakeserver.StoreSQLite
	}
	c.store = m.Store
	// On PostgreSQL one cluster for the whole matrix: each suite and hunt
	// takes databases of its own on it, sparing each a cluster's start.
	pg, err := embedded.StartPostgresFor(ctx, c.store)
	if err != nil {
		return nil, fmt.Errorf("selftest: %w", err)
	}
	defer pg.Close()
	c.pg = pg
	for i := range c.runs {
		m.Reference = append(m.Reference, ReferenceRun{N: i + 1, raceChecks: c.raceChecks})
	}
	for _, e := range exps {
		fi := info[e.Fault]
		m.Rows = append(m.Rows, Row{Expectation: e, Clause: fi.Breaks, Description: fi.Description})
	}

	if !c.overload.Zero() {
		load, err := overload.Start(ctx, c.overload)
		if err != nil {
			return nil, fmt.Errorf("selftest: overload: %w", err)
		}
		defer func() { _ = load.Stop() }()
		m.Overload = load.Describe()
		fmt.Fprintf(c.progress, "selftest: overload: %s\n", m.Overload)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	say := func(format string, a ...any) {
		mu.Lock()
		fmt.Fprintf(c.progress, "selftest: "+format+"\n", a...)
		mu.Unlock()
	}

	// Lane 1: acceptance runs.
	wg.Add(1)
	go func() {
		defer wg.Done()
		acceptanceLane(ctx, m, ps, info, c, say, fail)
	}()

	// Lane 2: race hunts (racehunt serialises hunts anyway).
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range m.Reference {
			r, err := raceReference(ctx, c)
			if err != nil {
				fail(fmt.Errorf("race hunt against the reference (run %d): %w", i+1, err))
				return
			}
			m.Reference[i].Race = r
			say("reference run %d/%d: race %d/%d workloads clean (%s)", i+1, len(m.Reference), r.Checks, c.raceChecks, r.Elapsed.Round(time.Millisecond))
		}
		for i := range m.Rows {
			row := &m.Rows[i]
			if !row.Expectation.Race {
				continue
			}
			f, _ := faults.Lookup(row.Fault)
			// A fault breaking a feature's clause hunts with the feature
			// claimed: penalties are served and modelled.
			r, err := runRace(ctx, row.Fault, claimFeatures(profileConfig(f.Profile), row.Fault), row.Replicas, c)
			if err != nil {
				fail(fmt.Errorf("race hunt against fault %s: %w", row.Fault, err))
				return
			}
			row.Race = r
			if r.Found {
				say("%s: race found %s after %d clean workload(s) (%s)", row.Fault, r.Class, r.Checks, r.Detected.Round(time.Millisecond))
			} else {
				say("%s: race found nothing in %d workloads", row.Fault, r.Checks)
			}
		}
	}()
	wg.Wait()
	m.Elapsed = time.Since(start)
	if firstErr != nil {
		return m, fmt.Errorf("selftest: %w", firstErr)
	}
	return m, nil
}
