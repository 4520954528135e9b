package racehunt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rlspec/rlspec/racehunt/histcheck"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"
)

// HuntOptions configure Hunt. Zero values take the defaults.
type HuntOptions struct {
	Checks int    // generated workloads (CHECKS; default 100, 1 with Seed)
	Seed   uint64 // replay this workload (SEED); 0 = random
	// SearchSeed fixes rapid's base seed for a normal search (not a
	// replay): CHECKS workloads derived from it. 0 = random.
	SearchSeed uint64
	Repeat     int // replays of a found workload (REPEAT; default 20)
	// ShrinkTime bounds rapid's minimisation (default 20 s).
	ShrinkTime time.Duration
	// ShrinkAttempts is how often a workload is run, once a failure was
	// seen, before it counts as passing (default 3).
	ShrinkAttempts int
	// Name names rapid's fail files (default "RaceHunt").
	Name string
	// FailDir keeps rapid's fail files, in one directory per target
	// (FailKey): the newest one of the target is replayed first, so a found
	// race stays a regression test for that target and is not replayed
	// against another. Default: ReportDir/rapid, or the user's cache
	// (rlspec/rapid) without ReportDir. Nothing stays in the working
	// directory.
	FailDir string
	// FailKey names the target for its fail files (default its Describe).
	FailKey string
	// NoFailFile stops rapid writing fail files (always so with Seed).
	NoFailFile bool
	// ReportDir receives porcupine's visualisation of a failing history.
	ReportDir string
	Gen       GenOptions
	// LinearTimeout bounds porcupine per history (default 10 s); a timeout
	// is reported, not counted as a violation.
	LinearTimeout time.Duration
	// Log receives progress lines (nil: none).
	Log func(format string, args ...any)
	// Progress is the interval of the lines saying how far the hunt is
	// (0: DefaultProgress; negative: none).
	Progress time.Duration
}

// Result is what a hunt found.
type Result struct {
	Checks int // workloads run without violation before the failure (or in all)
	// Detected is the time from the start to the first failing run.
	Detected time.Duration
	Requests int // requests sent in all, shrinking included (not the replays)
	Duration time.Duration
	Found    bool
	Class    histcheck.Class
	// Workload is the shrunk failing workload, History its failing run and
	// Violations what the checks said about it.
	Workload   Workload
	History    *histcheck.History
	Violations []histcheck.Violation
	// Seed regenerates the original failing workload (0 when the failure
	// came from a fail file); FailFile is rapid's record of the shrunk one.
	Seed     uint64
	FailFile string
	// SearchSeed is rapid's base seed: with Checks it regenerates every
	// workload of the hunt (reported for clean hunts too).
	SearchSeed uint64
	// Replayed is the fail file of this target replayed first ("": none).
	Replayed string
	// Reproduced of Repeat replays of the shrunk workload failed again.
	Reproduced, Repeat int
	// SeedReproduced of Repeat runs of the seed's workload failed (with
	// HuntOptions.Seed only).
	SeedReproduced int
	// Visualization is porcupine's HTML file, when porcupine rejected it.
	Visualization string
	// LinearTimeouts counts histories porcupine could not decide in time.
	LinearTimeouts int
	// Flaky is set when rapid could not reproduce the failure to shrink it.
	Flaky bool
	// RapidReport is rapid's own failure message.
	RapidReport string
	// Findings are the header and body deviations seen in any workload
	// (AnswerClass: how the target answers, not what it decided): reported
	// beside the verdict, they never end the hunt, so the algorithm is
	// still hunted. At most MaxFindings are kept, one per class and detail.
	Findings []histcheck.Violation
}

// Verdict is a checked run of one workload: the algorithm's violations
// and, apart, the answer's findings (AnswerClass).
type Verdict struct {
	History    *histcheck.History
	Violations []histcheck.Violation
	Findings   []histcheck.Violation
	Linear     histcheck.LinearResult
}

// Failed reports whether the run broke a property.
func (v Verdict) Failed() bool { return len(v.Violations) > 0 }

// Class names the run's violation.
func (v Verdict) Class() histcheck.Class { return histcheck.Primary(v.Violations) }

// RunAndCheck runs w once on t and checks the history.
func RunAndCheck(ctx context.Context, t Target, w Workload, linearTimeout time.Duration) (Verdict, error) {
	r, err := t.Runner(w.Limit)
	if err != nil {
		return Verdict{}, err
	}
	h, err := r.Run(ctx, w)
	if err != nil {
		return Verdict{}, err
	}
	if len(h.Ops) > 0 && h.Unknown() == len(h.Ops) {
		return Verdict{}, fmt.Errorf("no request got a response (first: %v)", h.Ops[0].Ex.Err)
	}
	c := histcheck.CheckerOf(h)
	v := Verdict{History: h}
	v.Violations, v.Findings = histcheck.SplitFindings(c.Violations())
	v.Linear = c.Linearizable(linearTimeout)
	if v.Linear.Result == porcupine.Illegal {
		v.Violations = append(v.Violations, histcheck.Violation{Class: histcheck.ClassLinearizable,
			Detail: "no order of the requests explains the responses under the sequential bucket model (see the HTML visualisation)"})
	}
	return v, nil
}

// rapidMu serialises hunts: rapid's settings are process-wide flags.
var rapidMu sync.Mutex

// Hunt generates workloads with rapid, runs and checks each on t, and on a
// violation lets rapid shrink the workload, then replays the shrunk one
// Repeat times. An error means the hunt could not run.
func Hunt(ctx context.Context, t Target, o HuntOptions) (Result, error) {
	if o.Repeat < 1 {
		o.Repeat = 20
	}
	if o.Checks < 1 {
		o.Checks = 100
		if o.Seed != 0 {
			o.Checks = 1
		}
	}
	if o.ShrinkTime <= 0 {
		o.ShrinkTime = 20 * time.Second
	}
	if o.ShrinkAttempts < 1 {
		o.ShrinkAttempts = 3
	}
	if o.Name == "" {
		o.Name = "RaceHunt"
	}
	if o.Seed != 0 {
		// rapid replays the fail files of the name first: a seed replay
		// must run the seed's workload, so it uses a name without any.
		o.Name += "Seed"
	}
	if o.LinearTimeout <= 0 {
		o.LinearTimeout = 10 * time.Second
	}
	logf := o.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if len(o.Gen.Limits) == 0 {
		o.Gen.Limits = t.Limits()
	}
	gen := Workloads(o.Gen)
	if o.Progress == 0 {
		o.Progress = DefaultProgress
	}
	prog := newProgress(o.Progress, o.Checks, time.Now, logf)

	var (
		mu       sync.Mutex
		abort    error
		last     *Verdict // the latest invocation's verdict
		lastW    Workload
		failing  *Verdict // the latest failing verdict
		failingW Workload
		calls    int
		seedHits int
		timeouts int
		findings []histcheck.Violation
		seen     = map[string]bool{}
		requests int
		detected time.Duration
		start    = time.Now()
	)
	prop := func(rt *rapid.T) {
		mu.Lock()
		stop := abort
		calls++
		first := calls == 1
		mu.Unlock()
		if stop != nil || ctx.Err() != nil {
			rt.Skip("hunt aborted")
		}
		w := gen.Draw(rt, "workload")
		// Interleavings vary: once a failure is seen (rapid is then
		// reproducing or shrinking it), a workload counts as failing when
		// any of a few runs fails, so that shrinking survives flaky races.
		runs := 1
		mu.Lock()
		if failing != nil {
			runs = o.ShrinkAttempts
		}
		mu.Unlock()
		if o.Seed != 0 && first {
			runs = o.Repeat
		}
		var keep *Verdict
		for i := 0; i < runs; i++ {
			v, err := RunAndCheck(ctx, t, w, o.LinearTimeout)
			if err != nil {
				mu.Lock()
				if abort == nil {
					abort = err
				}
				mu.Unlock()
				rt.Skip("could not run")
			}
			if v.Linear.Result == porcupine.Unknown {
				mu.Lock()
				timeouts++
				mu.Unlock()
			}
			mu.Lock()
			requests += len(v.History.Ops)
			findings = histcheck.AddFindings(findings, seen, v.Findings)
			mu.Unlock()
			if v.Failed() {
				if o.Seed != 0 && first {
					seedHits++
				}
				if keep == nil {
					keep = &v
				}
				if !(o.Seed != 0 && first) {
					break
				}
			} else if keep == nil && i == runs-1 {
				keep = &v
			}
		}
		mu.Lock()
		last, lastW = keep, w
		if keep.Failed() {
			if failing == nil {
				detected = time.Since(start)
			}
			failing, failingW = keep, w
		}
		prog.tick(calls, requests, failing != nil)
		mu.Unlock()
		if keep.Failed() {
			rt.Logf("workload:\n%s", w)
			for _, v := range keep.Violations {
				rt.Logf("%s", v)
			}
			// One message for every class: rapid only accepts a shrink
			// step that fails with the same message.
			rt.Fatalf("race found (violations above)")
		}
	}

	base := o.SearchSeed
	if o.Seed != 0 {
		base = o.Seed
	}
	for base == 0 {
		base = rand.Uint64() // chosen here, so that a clean hunt can say it
	}
	noFailFile := o.Seed != 0 || o.NoFailFile
	tb := &huntTB{name: o.Name}
	var ff *failFiles
	replay := ""
	if !noFailFile {
		root := o.FailDir
		if root == "" {
			var err error
			if root, err = defaultFailRoot(o.ReportDir); err != nil {
				return Result{}, err
			}
		}
		key := o.FailKey
		if key == "" {
			key = t.Describe()
		}
		ff = newFailFiles(root, o.Name, key)
		tb.name = ff.name
		replay = ff.latest()
	}
	restore, err := setRapidFlags(map[string]string{
		"rapid.checks":     strconv.Itoa(o.Checks),
		"rapid.seed":       strconv.FormatUint(base, 10),
		"rapid.shrinktime": o.ShrinkTime.String(),
		"rapid.nofailfile": strconv.FormatBool(noFailFile),
		"rapid.failfile":   replay,
		"rapid.v":          "false",
		// rapid runs a fifth of its checks under -short: a hunt runs what
		// it was asked for, also inside `go test -short`.
		"test.short": "false",
	})
	if err != nil {
		return Result{}, err
	}
	logf("rapid: %d workload(s), seed %d, against %s", o.Checks, base, t.Describe())
	if replay != "" {
		logf("replaying first the fail file of this target %s", replay)
	}
	if ff != nil {
		ff.before()
	}
	rapid.Check(tb, prop)
	restore()
	res := Result{Duration: time.Since(start), Repeat: o.Repeat, LinearTimeouts: timeouts, Requests: requests, SearchSeed: base, Replayed: replay, Findings: findings}
	if ff != nil {
		defer ff.tidy()
	}
	if abort != nil {
		return res, fmt.Errorf("race hunt could not run: %w", abort)
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("race hunt interrupted: %w", err)
	}
	report := tb.report()
	res.RapidReport = report
	res.Checks = parsePassed(report, tb.logs())
	if !tb.failed || failing == nil {
		if tb.failed {
			return res, fmt.Errorf("rapid failed without a violation: %s", report)
		}
		return res, nil
	}
	res.Found = true
	res.Detected = detected
	res.Flaky = strings.Contains(report, "flaky test")
	if m := seedRE.FindStringSubmatch(report); m != nil {
		res.Seed, _ = strconv.ParseUint(m[1], 10, 64)
	} else if o.Seed != 0 {
		res.Seed = o.Seed
	}
	if m := failfileRE.FindStringSubmatch(report); m != nil && ff != nil {
		if res.FailFile, err = ff.keep(m[1]); err != nil {
			logf("%v", err)
		}
	}
	// rapid's last call replays the shrunk workload; if that replay passed
	// (interleavings vary), the latest failing run is reported instead.
	v, w := failing, failingW
	if last != nil && last.Failed() {
		v, w = last, lastW
	}
	res.Workload, res.History, res.Violations, res.Class = w, v.History, v.Violations, v.Class()
	res.SeedReproduced = seedHits
	if v.Linear.Result == porcupine.Illegal && o.ReportDir != "" {
		p, err := v.Linear.Visualize(o.ReportDir, "race-linearizability.html")
		if err != nil {
			logf("%v", err)
		}
		res.Visualization = p
	}
	logf("found %s; replaying the shrunk workload %d times", res.Class, o.Repeat)
	for i := 0; i < o.Repeat; i++ {
		rv, err := RunAndCheck(ctx, t, w, o.LinearTimeout)
		if err != nil {
			return res, fmt.Errorf("replay: %w", err)
		}
		if rv.Failed() {
			res.Reproduced++
		}
	}
	return res, nil
}
