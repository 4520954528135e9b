package acceptance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rlspec/rlspec/internal/stall"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/acceptance/preflight"
	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget"
	"github.com/rlspec/rlspec/steps"
)

// Config is what Run needs. Target carries the contract's settings; its URL
// and DisabledURL are the targets, which the caller has started (the CLI
// edge starts TARGET_IMAGE containers or the embedded reference and fills
// them in). Name is how reports name the target (default: the URL).
type Config struct {
	Target service.Config
	// Reached is what became known of the service once it was up, which
	// no setting says: its instances, an untrusting twin, a second store.
	Reached
	Settings Settings // how the suite runs; the zero Settings is DefaultSettings()
	Name     string
	// Store takes the target's store away and brings it back (the
	// embedded reference's hook); nil: STORE_DOWN_CMD / STORE_UP_CMD when
	// set, else the fail-mode scenarios skip.
	Store steps.StoreControl
	// Restarter restarts the target on its store (PS-1): the embedded
	// reference's servers, or TARGET_IMAGE's containers; nil: the
	// persistence scenario skips.
	Restarter steps.Restarter
}

// CouldNotRun is an error that means the suite could not run (exit 2).
type CouldNotRun struct{ Reason string }

func (e *CouldNotRun) Error() string { return e.Reason }

func couldNotRun(format string, args ...any) error {
	return &CouldNotRun{Reason: fmt.Sprintf(format, args...)}
}

// Option sets a library default of Run.
type Option func(*runner)

type runner struct {
	out             io.Writer
	concurrency     int
	probeTimeout    time.Duration
	scenarioTimeout time.Duration
	reports         bool
	requestTimeout  time.Duration
	cucumber        io.Writer // godog's cucumber JSON without reports (PROFILE=all merges them)
	resolver        service.Resolver
}

// WithOutput sets where progress and the verdict table go (default io.Discard).
func WithOutput(w io.Writer) Option { return func(r *runner) { r.out = w } }

// WithConcurrency sets how many scenarios run at once (default 16).
func WithConcurrency(n int) Option { return func(r *runner) { r.concurrency = n } }

// WithProbeTimeout bounds the preflight probe of each target (default 10s).
func WithProbeTimeout(d time.Duration) Option { return func(r *runner) { r.probeTimeout = d } }

// WithScenarioTimeout bounds every scenario (default MAX_WAIT + 60s).
func WithScenarioTimeout(d time.Duration) Option { return func(r *runner) { r.scenarioTimeout = d } }

// WithRequestTimeout bounds every request of the suite (default
// httpclient.DefaultTimeout).
func WithRequestTimeout(d time.Duration) Option { return func(r *runner) { r.requestTimeout = d } }

// WithResolver sets how the targets' host names are resolved for the
// CLIENT_IPS check (default net.DefaultResolver).
func WithResolver(r service.Resolver) Option { return func(r0 *runner) { r0.resolver = r } }

// WithoutReports skips writing REPORT_DIR (used by the self-test matrix).
func WithoutReports() Option { return func(r *runner) { r.reports = false } }

// withCucumber writes godog's cucumber JSON to w (with WithoutReports:
// RunAll merges the profiles' into one cucumber.json).
func withCucumber(w io.Writer) Option { return func(r *runner) { r.cucumber = w } }

// Report is the outcome of one run.
type Report struct {
	Results []steps.ScenarioResult // sorted by ID
	Strict  bool
	Target  string
	Elapsed time.Duration
	// Runs are the profiles run (one, or several with PROFILE=all), with
	// the settings each ran with: conformance.json's input.
	Runs []ProfileRun
}

// ProfileRun is one profile's run: its settings (the dialect resolved) and the
// sentence saying which dialect it was read in and why.
type ProfileRun struct {
	service.Config
	Dialect string
}

// Count returns how many results have status st.
func (r *Report) Count(st steps.Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Status == st {
			n++
		}
	}
	return n
}

// rerun reports whether a scenario was run once more.
func (r *Report) rerun() bool {
	for _, res := range r.Results {
		if res.Rerun != "" {
			return true
		}
	}
	return false
}

// ExitCode is 0 when every scenario that ran passed, 1 when one failed (or,
// strict, was skipped other than as not claimed).
func (r *Report) ExitCode() int {
	if r.Count(steps.Failed) > 0 || (r.Strict && r.Count(steps.Skipped) > r.notClaimed()) {
		return 1
	}
	return 0
}

// notClaimed counts the scenarios skipped because the target does not
// claim their extended feature (FEATURES); STRICT does not fail those.
func (r *Report) notClaimed() int {
	n := 0
	for _, res := range r.Results {
		if isNotClaimed(res) {
			n++
		}
	}
	return n
}

// Run runs the suite. A *CouldNotRun error means exit status 2; otherwise
// Report.ExitCode is the verdict.
func Run(ctx context.Context, cfg Config, opts ...Option) (*Report, error) {
	r := &runner{out: io.Discard, concurrency: 16, probeTimeout: 10 * time.Second, reports: true}
	for _, o := range opts {
		o(r)
	}
	tc := cfg.Target
	if err := tc.Validate(); err != nil {
		return nil, couldNotRun("bad settings: %v", err)
	}
	if err := preflight.CheckProfile(tc.Profile); err != nil {
		return nil, couldNotRun("%v", err)
	}
	explicit := tc.Answer() // before the profile's defaults: what the implementer stated
	tc = tc.ForProfile(tc.Profile)
	if err := preflight.CheckLimit(tc); err != nil {
		return nil, couldNotRun("%v", err)
	}
	set := cfg.Settings
	if set == (Settings{}) {
		set = DefaultSettings()
	}
	if err := set.Validate(); err != nil {
		return nil, couldNotRun("bad settings: %v", err)
	}
	tags, _, unclaimed, err := selectClaimed(features.FS, set.Tags, tc.Profile, tc.Claims)
	if err != nil {
		return nil, couldNotRun("%v", err)
	}
	var n int
	if tags, unclaimed, n, err = withUnchecked(tc, set.Tags, tags, unclaimed); err != nil {
		return nil, couldNotRun("%v", err)
	}
	if n == 0 {
		tags = "@id:none" // only skipped scenarios: godog runs nothing
	}
	if n == 0 && len(unclaimed) == 0 {
		return nil, couldNotRun("TAGS=%q matched no scenario of PROFILE=%s", set.Tags, tc.Profile)
	}
	start := time.Now()
	var sql *sqltarget.Transport
	if tc.SQL != "" {
		if sql, err = openSQL(ctx, &tc); err != nil {
			return nil, couldNotRun("%v", err)
		}
		defer sql.Close()
	}
	name := redact.URL(tc.URL)
	if sql != nil {
		name = sqltarget.Describe(tc)
	}
	if tc.URL == "" {
		return nil, couldNotRun("no target: TARGET_URL is empty (rlspec acceptance starts TARGET_IMAGE, or the embedded reference when neither is set, before it runs the suite)")
	}
	if cfg.Name != "" {
		name = cfg.Name
	}
	body, err := bodytmpl.Load(tc.BodyTemplate)
	if err != nil {
		return nil, couldNotRun("%v", err)
	}
	answer := dialect.Detection{Settings: tc.Answer()}.Sentence("")
	if sql == nil {
		if err := tc.CheckClientIPs(ctx, r.resolver, cfg.URLs); err != nil {
			return nil, couldNotRun("%v", err)
		}
		// A SQL target was probed by opening it: the function exists and
		// takes the window.
		if err := preflight.Probe(ctx, tc, cfg.URLs, r.probeTimeout); err != nil {
			return nil, couldNotRun("%v", err)
		}
		det, err := preflight.CheckSettings(ctx, tc, explicit, body, r.probeTimeout)
		if err != nil {
			return nil, couldNotRun("%v", err)
		}
		tc, answer = tc.WithAnswer(det.Settings), det.Sentence("the first response")
	}
	bodyWarning, err := preflight.BodyNote(body)
	if err != nil {
		return nil, couldNotRun("BODY_TEMPLATE: %v", err)
	}
	env, closeEnv, err := NewEnv(tc, cfg.Reached)
	if err != nil {
		return nil, couldNotRun("%v", err)
	}
	defer closeEnv()
	if cfg.Store != nil {
		env.Store = cfg.Store
	}
	env.Restarter = cfg.Restarter
	if env.Turns, err = turns(features.FS, tags); err != nil {
		return nil, couldNotRun("%v", err)
	}
	var clientOpts []httpclient.Option
	if r.requestTimeout > 0 {
		clientOpts = append(clientOpts, httpclient.WithTimeout(r.requestTimeout))
	}
	if sql != nil {
		clientOpts = append(clientOpts, httpclient.WithTransport(sql), httpclient.WithReplay(sql.Command))
		env.Ager = sql
	}
	if len(clientOpts) > 0 {
		env.NewClient = func(base string) steps.Client {
			return httpclient.New(tc, base, clientOpts...)
		}
	}
	env.ScenarioTimeout = r.scenarioTimeout
	env.MaxWait = set.MaxWait
	stalls := stall.Start()
	defer stalls.Stop()
	env.Stalls = stalls.Lost
	total := n
	if set.Verbose {
		total += len(unclaimed)
	}
	col := newCollector(r.out, set.Verbose, total, time.Now)
	env.Recorder = col

	format, output := "progress", io.Writer(io.Discard)
	// godog writes its cucumber JSON into a buffer, completed before RunAll
	// or the report file gets it: a path in its format string would be cut
	// at a comma (REPORT_DIR=a,b).
	var cuke bytes.Buffer
	var cucumberPath string
	if r.reports {
		if err := os.MkdirAll(set.ReportDir, 0o755); err != nil {
			return nil, couldNotRun("REPORT_DIR: %v", err)
		}
		cucumberPath = filepath.Join(set.ReportDir, "cucumber.json")
	}
	if r.cucumber != nil || r.reports {
		format, output = "cucumber", &cuke
	}
	where := redact.URL(tc.Endpoint(tc.URL))
	switch {
	case sql != nil:
		where = name
	case cfg.Name != "":
		where = cfg.Name + " at " + where
	}
	settings := fmt.Sprintf("limit %d, window %s", tc.Limit, tc.Window)
	if profile.Of(tc.Profile).SizedByRate() {
		settings = fmt.Sprintf("burst %d, rate %g/s", tc.Burst, tc.Rate)
	}
	fmt.Fprintf(r.out, "rlspec acceptance: %s, profile %s, %s\n", where, tc.Profile, settings)
	fmt.Fprintf(r.out, "%s\n", answer)
	if bodyWarning != "" {
		fmt.Fprintf(r.out, "note: %s\n", bodyWarning)
	}
	status := godog.TestSuite{
		Name:                "rlspec",
		ScenarioInitializer: steps.Initializer(env),
		Options: &godog.Options{
			Format:         format,
			Output:         output,
			FS:             features.FS,
			Paths:          []string{"."},
			Strict:         true,
			Concurrency:    max(1, r.concurrency),
			Tags:           tags,
			DefaultContext: ctx,
			NoColors:       true,
		},
	}.Run()
	if ctx.Err() != nil {
		return nil, couldNotRun("interrupted: %v", ctx.Err())
	}
	for _, u := range unclaimed {
		col.Record(u)
	}
	if err := completeCucumber(r.cucumber, cuke.Bytes(), cucumberPath, unclaimed); err != nil {
		return nil, couldNotRun("write reports: %v", err)
	}
	rep := &Report{Results: col.results(), Strict: set.Strict, Target: name, Elapsed: time.Since(start), Runs: []ProfileRun{{Config: tc, Dialect: answer}}}
	switch {
	case len(rep.Results) == 0:
		return nil, couldNotRun("godog ran no scenario (godog exit status %d)", status)
	case status != 0 && rep.ExitCode() == 0 && !rep.rerun():
		// A scenario run once more (a broken time assumption) may have
		// failed in godog's first run; its recorded verdict is the second.
		return nil, errors.New("godog reported a failure that no scenario recorded")
	}
	writeTable(r.out, rep, set.Verbose)
	for _, note := range []string{redact.CredentialNote(tc.Headers), redact.URLCredentialNote(tc.URL)} {
		if note != "" && rep.Count(steps.Failed) > 0 {
			fmt.Fprintf(r.out, "note: %s\n", note)
		}
	}
	if r.reports {
		if err := writeReports(set.ReportDir, rep); err != nil {
			return rep, couldNotRun("write reports: %v", err)
		}
		fmt.Fprintf(r.out, "reports: %s, %s, %s, %s\n", filepath.Join(set.ReportDir, "junit.xml"), cucumberPath, filepath.Join(set.ReportDir, "report.html"), filepath.Join(set.ReportDir, ConformanceFile))
	}
	return rep, nil
}

// sortResults orders results by ID, then name.
func sortResults(rs []steps.ScenarioResult) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].ID != rs[j].ID {
			return rs[i].ID < rs[j].ID
		}
		return rs[i].Name < rs[j].Name
	})
}
