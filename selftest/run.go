package selftest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/racehunt"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// Defaults of Run.
const (
	DefaultRaceChecks = 100
	// DefaultReferenceReplicas is the number of in-process servers on one
	// database file the reference's race hunt targets, so that the
	// process-cache comparison (caught with several, clean reference) is
	// made on the same topology.
	DefaultReferenceReplicas = 2
)

type config struct {
	runs       int
	raceChecks int
	faults     []fault.Name
	progress   io.Writer
	reportDir  string
	store      fakeserver.StoreKind
	parallel   int
	profiles   []profile.Name // nil: every profile
}

// Option configures Run.
type Option func(*config) error

// DefaultParallel is how many faulty references the acceptance lane runs
// at once. The suite against one reference mostly waits (on windows of
// seconds and on the reference's fsyncs), so four keep two cores busy.
const DefaultParallel = 4

// WithParallel runs n faults' acceptance suites at once (default
// DefaultParallel). The correct reference's runs stay one at a time, before
// the faults, so that its verdicts never share the machine with them.
func WithParallel(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("parallel %d: want at least 1", n)
		}
		c.parallel = n
		return nil
	}
}

// WithRuns runs the correct reference n times (default 1): each run is a
// whole acceptance suite and a race hunt, all of which must pass.
func WithRuns(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("runs %d must be at least 1", n)
		}
		c.runs = n
		return nil
	}
}

// WithRaceChecks sets the generated workloads per race hunt (default
// DefaultRaceChecks): the budget within which a concurrency fault must be
// found, and the number of clean workloads the reference must pass.
func WithRaceChecks(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("race checks %d must be at least 1", n)
		}
		c.raceChecks = n
		return nil
	}
}

// WithFaults restricts the matrix to these faults (default: all). With
// none given, only the reference runs.
func WithFaults(fs ...fault.Name) Option {
	return func(c *config) error {
		for _, f := range fs {
			if f == fault.None {
				return errors.New("the reference is not a fault: it always runs")
			}
		}
		c.faults = slices.Clone(fs)
		if c.faults == nil {
			c.faults = []fault.Name{}
		}
		return nil
	}
}

// WithProfiles restricts the matrix to these profiles (default: every
// profile the faults belong to): the reference runs their suites and race
// hunts only, and the faults default to theirs. A fault of another profile
// in WithFaults is an error.
func WithProfiles(ps ...profile.Name) Option {
	return func(c *config) error {
		if len(ps) == 0 {
			return errors.New("profiles: name at least one")
		}
		c.profiles = nil
		for _, p := range ps {
			p, err := fakeserver.ParseProfile(string(p))
			if err != nil {
				return err
			}
			if !slices.Contains(c.profiles, p) {
				c.profiles = append(c.profiles, p)
			}
		}
		return nil
	}
}

// suiteProfiles are the profiles the reference runs: WithProfiles' or all.
func (c config) suiteProfiles() []profile.Name {
	if c.profiles != nil {
		return c.profiles
	}
	return profiles()
}

// WithStore runs the embedded reference and every fault on this store
// (default SQLite; PostgreSQL: a throwaway cluster per run).
func WithStore(k fakeserver.StoreKind) Option {
	return func(c *config) error {
		if _, err := fakeserver.ParseStoreKind(string(k)); err != nil {
			return err
		}
		c.store = k
		return nil
	}
}

// WithProgress writes one line per finished run to w (default: none).
func WithProgress(w io.Writer) Option {
	return func(c *config) error {
		if w == nil {
			w = io.Discard
		}
		c.progress = w
		return nil
	}
}

// WithReportDir is where porcupine's visualisation of a failing race
// history goes (default: not written).
func WithReportDir(dir string) Option {
	return func(c *config) error { c.reportDir = dir; return nil }
}

// AcceptanceResult is one acceptance run's outcome.
type AcceptanceResult struct {
	Passed, Failed, Skipped int
	PassedIDs               []string // sorted
	FailedIDs               []string // sorted
	SkippedIDs              []string // sorted
	// NotClaimedIDs are scenarios of extended features the reference does
	// not claim (FAIL-2 fail-open), skipped as "not claimed" and counted
	// apart: they are not a skip of claimed work.
	NotClaimedIDs []string // sorted
	Elapsed       time.Duration
}

// RaceResult is one race hunt's outcome.
type RaceResult struct {
	Ran       bool
	Replicas  int
	Found     bool
	Class     racehunt.Class
	Checks    int           // workloads run without violation (before the failure, or in all)
	Detected  time.Duration // start to first failing workload
	Elapsed   time.Duration
	Violation string // the first violation, when found
}

// Row is one fault's line of the matrix.
type Row struct {
	Expectation
	Clause      clause.Refs
	Description string
	Acceptance  AcceptanceResult
	Race        RaceResult
	// Missed are required scenarios that passed against the fault.
	Missed []string
	// FirstMissed are the required scenarios a race fault's first suite
	// missed, when a second suite ran (see Run); empty otherwise.
	FirstMissed []string
}

// missedBy are the scenarios of required that did not fail in r.
func missedBy(required []string, r AcceptanceResult) []string {
	var out []string
	for _, id := range required {
		if !slices.Contains(r.FailedIDs, id) {
			out = append(out, id)
		}
	}
	return out
}

// Caught reports whether any detector caught the fault.
func (r Row) Caught() bool { return r.Acceptance.Failed > 0 || r.Race.Found }

// OK reports whether every demand of the expectation was met.
func (r Row) OK() bool {
	return r.Caught() && len(r.Missed) == 0 && (!r.Expectation.Race || r.Race.Found)
}

// ReferenceRun is one run against the correct reference.
type ReferenceRun struct {
	N          int
	Acceptance AcceptanceResult
	Race       RaceResult
	raceChecks int
}

// OK reports whether the reference passed everything: no scenario failed or
// was skipped, and every race workload ran clean.
func (r ReferenceRun) OK() bool {
	return r.Acceptance.Passed > 0 && r.Acceptance.Failed == 0 && r.Acceptance.Skipped == 0 &&
		r.Race.Ran && !r.Race.Found && r.Race.Checks == r.raceChecks
}

// Matrix is the outcome of Run.
type Matrix struct {
	Reference  []ReferenceRun
	Rows       []Row
	RaceChecks int
	Store      fakeserver.StoreKind // the store every run used
	// Profiles are the profiles the reference ran (nil: every profile).
	Profiles []profile.Name
	Elapsed  time.Duration
}

// OK reports whether the reference passed every run and every fault was
// caught as expected.
func (m *Matrix) OK() bool {
	for _, r := range m.Reference {
		if !r.OK() {
			return false
		}
	}
	for _, r := range m.Rows {
		if !r.OK() {
			return false
		}
	}
	return !m.Complete() || len(m.Toothless()) == 0
}

// Toothless are the scenarios that pass against the reference and against
// every fault: checks no fault has shown able to fail. It is only
// meaningful when every fault ran (see Complete).
func (m *Matrix) Toothless() []string {
	if len(m.Reference) == 0 {
		return nil
	}
	failed := map[string]bool{}
	for _, r := range m.Rows {
		for _, id := range r.Acceptance.FailedIDs {
			failed[id] = true
		}
	}
	var out []string
	for _, id := range m.Reference[0].Acceptance.PassedIDs {
		if !failed[id] {
			out = append(out, id)
		}
	}
	return out
}

// Complete reports whether the matrix covers every fault of the profiles
// it ran (not a FAULTS selection).
func (m *Matrix) Complete() bool {
	for _, f := range fault.All() {
		if m.Profiles != nil && !slices.Contains(m.Profiles, profileOf(f.Profile)) {
			continue
		}
		if !slices.ContainsFunc(m.Rows, func(r Row) bool { return r.Fault == f.Name }) {
			return false
		}
	}
	return true
}

// Survivors are the faults no detector caught.
func (m *Matrix) Survivors() []fault.Name {
	var out []fault.Name
	for _, r := range m.Rows {
		if !r.Caught() {
			out = append(out, r.Fault)
		}
	}
	return out
}

// Run runs the matrix: the acceptance suite against the reference and each
// fault (one at a time, the embedded reference with TARGET_DB seeding), and
// the race hunt against the reference and each concurrency fault, in a
// second lane alongside. An error means the matrix could not run (a suite
// that could not start, an interrupt); a caught or missed fault is in the
// Matrix, not an error.
func Run(ctx context.Context, opts ...Option) (*Matrix, error) {
	c := config{runs: 1, raceChecks: DefaultRaceChecks, progress: io.Discard, parallel: DefaultParallel}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, fmt.Errorf("selftest: %w", err)
		}
	}
	all, err := Expectations()
	if err != nil {
		return nil, err
	}
	info := map[fault.Name]fault.Fault{}
	for _, fi := range fault.All() {
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
	for i := range c.runs {
		m.Reference = append(m.Reference, ReferenceRun{N: i + 1, raceChecks: c.raceChecks})
	}
	for _, e := range exps {
		fi := info[e.Fault]
		m.Rows = append(m.Rows, Row{Expectation: e, Clause: fi.Breaks, Description: fi.Description})
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
		for i := range m.Reference {
			r, err := runReference(ctx, ps, m.Store)
			if err != nil {
				fail(fmt.Errorf("acceptance against the reference (run %d): %w", i+1, err))
				return
			}
			m.Reference[i].Acceptance = r
			say("reference run %d/%d: acceptance %d passed, %d failed, %d skipped (%s)", i+1, len(m.Reference), r.Passed, r.Failed, r.Skipped, r.Elapsed.Round(time.Millisecond))
		}
		rows := make(chan *Row)
		var workers sync.WaitGroup
		for range c.parallel {
			workers.Add(1)
			go func() {
				defer workers.Done()
				for row := range rows {
					r, err := runAcceptance(ctx, row.Fault, info[row.Fault].Profile, m.Store)
					if err != nil {
						fail(fmt.Errorf("acceptance against fault %s: %w", row.Fault, err))
						continue
					}
					row.Acceptance, row.Missed = r, missedBy(row.Scenarios, r)
					if len(row.Missed) > 0 && row.Expectation.Race && ctx.Err() == nil {
						// A race shows only when requests overlap at the
						// server, which a loaded machine can prevent for a
						// whole suite: one more suite, and the row says so.
						say("%s: acceptance missed %s; running the suite once more (a race fault)", row.Fault, strings.Join(row.Missed, " "))
						row.FirstMissed = row.Missed
						if r, err = runAcceptance(ctx, row.Fault, info[row.Fault].Profile, m.Store); err != nil {
							fail(fmt.Errorf("acceptance against fault %s: %w", row.Fault, err))
							continue
						}
						row.Acceptance, row.Missed = r, missedBy(row.Scenarios, r)
					}
					say("%s: acceptance %d scenario(s) failed (%s)", row.Fault, r.Failed, r.Elapsed.Round(time.Millisecond))
				}
			}()
		}
		for i := range m.Rows {
			if ctx.Err() != nil {
				break
			}
			rows <- &m.Rows[i]
		}
		close(rows)
		workers.Wait()
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
			f, _ := fault.Lookup(row.Fault)
			r, err := runRace(ctx, row.Fault, f.Profile, row.Replicas, c)
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

// profiles are the profiles the faults belong to, the PRD first: the
// reference runs the suite of each.
func profiles() []profile.Name {
	out := []profile.Name{profile.PRD}
	for _, f := range fault.All() {
		if f.Profile != "" && !slices.Contains(out, f.Profile) {
			out = append(out, f.Profile)
		}
	}
	return out
}

// profileConfig is the settings a profile's suite runs with: the
// contract's defaults for the PRD, windows of seconds for the others, and
// the reference's 429 body (spec/002's) claimed as LIMITED_BODY.
func profileConfig(p profile.Name) service.Config {
	tc := service.DefaultConfig()
	if p != "" && p != profile.PRD {
		tc.Profile, tc.Limit, tc.Window = profile.Name(p), 5, 3*time.Second
		tc.LimitedBody = dialect.JSONBody("/error/code", "RATE_LIMITED")
	}
	if p == profile.TokenBucket {
		tc = tc.WithTokenBucketDefaults()
	}
	return tc
}

// runReference runs the suite of each profile of ps against the reference
// and adds up the results (scenario ids differ between profiles).
func runReference(ctx context.Context, ps []profile.Name, store fakeserver.StoreKind) (AcceptanceResult, error) {
	var sum AcceptanceResult
	for _, p := range ps {
		r, err := runAcceptance(ctx, fault.None, p, store)
		if err != nil {
			return sum, fmt.Errorf("profile %s: %w", p, err)
		}
		sum.Passed, sum.Failed, sum.Skipped = sum.Passed+r.Passed, sum.Failed+r.Failed, sum.Skipped+r.Skipped
		sum.PassedIDs = append(sum.PassedIDs, r.PassedIDs...)
		sum.FailedIDs = append(sum.FailedIDs, r.FailedIDs...)
		sum.SkippedIDs = append(sum.SkippedIDs, r.SkippedIDs...)
		sum.Elapsed += r.Elapsed
	}
	slices.Sort(sum.PassedIDs)
	slices.Sort(sum.FailedIDs)
	slices.Sort(sum.SkippedIDs)
	return sum, nil
}

// runAcceptance runs profile p's suite against the embedded reference
// serving p with fault f on store (several instances on it where a fault
// of p declares Replicas: acceptanceReplicas), without writing reports. The reference
// requires a bearer token that TARGET_HEADERS carries, so that requests
// refused for their credentials are tested too (EXT-AUTH-01).
func runAcceptance(ctx context.Context, f fault.Name, p profile.Name, store fakeserver.StoreKind) (AcceptanceResult, error) {
	tc := claimFeatures(profileConfig(p), f)
	token := "Bearer rlspec-selftest-" + service.NewUUID()
	tc.Headers.Set("Authorization", token)
	rep, err := runOnPair(ctx, tc, embedded.Options{Fault: f, Profile: p, Store: store, RequireAuth: token,
		Burst: tc.Burst, Rate: tc.Rate, Replicas: acceptanceReplicas(f, p),
		Penalties: tc.ClaimedPenalties(), IETF: tc.AnswersIETF(), Bypass: tc.ClaimedBypass(), Tiers: tc.ClaimedTiers()}, acceptance.DefaultSettings())
	if err != nil {
		return AcceptanceResult{}, err
	}
	return tally(rep), nil
}

// runOnPair starts the embedded reference as o says, points tc at it (with
// what it claims when tc does not say) and runs the suite with set,
// without writing reports.
func runOnPair(ctx context.Context, tc service.Config, o embedded.Options, set acceptance.Settings) (*acceptance.Report, error) {
	pair, err := embedded.StartPair(tc.Limit, tc.Window, tc.Sentinel, o)
	if err != nil {
		return nil, err
	}
	defer pair.Close()
	tc.URL, tc.URLs, tc.DisabledURL, tc.DB, tc.Schema = pair.URL, pair.URLs, pair.DisabledURL, pair.TargetDB, service.SchemaPRD
	tc.PenaltiesURL, tc.PenaltiesDB = pair.PenaltiesURL, pair.PenaltiesDB
	tc = embedded.Claim(tc)
	return acceptance.Run(ctx, acceptance.Config{Target: tc, Settings: set, Name: pair.Description, Store: pair, Restarter: pair}, acceptance.WithoutReports())
}

// tally counts a report's verdicts.
func tally(rep *acceptance.Report) AcceptanceResult {
	r := AcceptanceResult{Elapsed: rep.Elapsed}
	for _, res := range rep.Results {
		switch res.Status {
		case steps.Passed:
			r.Passed++
			r.PassedIDs = append(r.PassedIDs, res.ID)
		case steps.Failed:
			r.Failed++
			r.FailedIDs = append(r.FailedIDs, res.ID)
		case steps.Skipped:
			if res.NotClaimed || strings.HasPrefix(res.Reason, steps.NotClaimed) {
				r.NotClaimedIDs = append(r.NotClaimedIDs, res.ID)
				continue
			}
			r.Skipped++
			r.SkippedIDs = append(r.SkippedIDs, res.ID)
		}
	}
	slices.Sort(r.PassedIDs)
	slices.Sort(r.FailedIDs)
	slices.Sort(r.SkippedIDs)
	slices.Sort(r.NotClaimedIDs)
	return r
}

// raceReference hunts races in the reference serving each profile of the
// matrix: the first violation, or the first profile's clean result with
// the time of all.
func raceReference(ctx context.Context, c config) (RaceResult, error) {
	var first RaceResult
	var elapsed time.Duration
	for i, p := range c.suiteProfiles() {
		r, err := runRace(ctx, fault.None, p, DefaultReferenceReplicas, c)
		if err != nil {
			return r, fmt.Errorf("%s: %w", p, err)
		}
		if r.Found {
			r.Violation = string(p) + ": " + r.Violation
			return r, nil
		}
		elapsed += r.Elapsed
		if i == 0 {
			first = r
		}
	}
	first.Elapsed = elapsed
	return first, nil
}

// runRace hunts races in the embedded reference serving profile p with
// fault f on replicas in-process servers sharing one database file.
func runRace(ctx context.Context, f fault.Name, p profile.Name, replicas int, c config) (RaceResult, error) {
	tc := profileConfig(p)
	o := embedded.Options{Fault: f, Store: c.store}
	if p != "" && p != profile.PRD {
		o.Profile = p
	}
	q, err := embedded.StartQuotas(tc.Window, []int{1, 2, 3, 4}, replicas, o)
	if err != nil {
		return RaceResult{}, err
	}
	e, err := racehunt.NewQuotas(tc, q.Bases, q.Clock, q.Description, q.Close)
	if err != nil {
		return RaceResult{}, errors.Join(err, q.Close())
	}
	defer e.Close()
	res, err := racehunt.Hunt(ctx, e, racehunt.HuntOptions{
		Checks: c.raceChecks,
		// The verdict needs the detection, not a polished reproduction:
		// shrink briefly and replay once.
		Repeat:     1,
		ShrinkTime: time.Second,
		// Detection must come from the generator, never from a fail file
		// of an earlier run.
		Name:       "selftest",
		NoFailFile: true,
		ReportDir:  c.reportDir,
		Gen:        racehunt.GenOptions{Boundaries: true, Profile: tc.Profile},
	})
	if err != nil {
		return RaceResult{}, err
	}
	r := RaceResult{Ran: true, Replicas: replicas, Found: res.Found, Class: res.Class, Checks: res.Checks, Detected: res.Detected, Elapsed: res.Duration}
	if res.Found && len(res.Violations) > 0 {
		r.Violation = res.Violations[0].String()
	}
	if !res.Found && len(res.Findings) > 0 { // header and body findings fail the run too, though they did not end the hunt
		r.Found, r.Class, r.Violation = true, res.Findings[0].Class, res.Findings[0].String()
	}
	return r, nil
}
