package selftest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/racehunt"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// profiles are the registry's profiles, the PRD first: the reference runs
// the suite of each, and a profile whose scenarios no fault fails is
// toothless (Matrix.Toothless).
func profiles() []profile.Name { return profile.Names() }

// profileConfig is the settings a profile's suite runs with: the
// contract's defaults for the PRD, its entry's quick size for the others, and
// the reference's 429 body (spec/002's) claimed as LIMITED_BODY.
func profileConfig(p profile.Name) service.Config {
	tc := service.DefaultConfig()
	if p != "" && p != profile.PRD {
		quick := profile.Of(p).Quick // SWC-2 needs the counter's larger sizes
		tc.Profile, tc.Limit, tc.Window = profile.Name(p), quick.Limit, quick.Window
		tc.LimitedBody = dialect.JSONBody("/error/code", "RATE_LIMITED")
	}
	if profile.Of(p).SizedByRate() {
		tc = tc.WithTokenBucketDefaults() // B and R: the reference's defaults
	}
	return tc
}

// runAcceptance runs profile p's suite against the embedded reference
// serving p with fault f on store (several instances on it where a fault
// of p declares Replicas: acceptanceReplicas), without writing reports. The reference
// requires a bearer token that TARGET_HEADERS carries, so that requests
// refused for their credentials are tested too (EXT-AUTH-01).
func runAcceptance(ctx context.Context, f fault.Name, p profile.Name, sv serving, tags string, c config) (AcceptanceResult, error) {
	tc := claimFeatures(profileConfig(p), f)
	if sv.Align != "" && profile.Of(p).TakesSetting(profile.SettingWindowAlign) {
		tc.WindowAlign = sv.Align
	}
	if sv.NoDelay {
		tc.LBMode = service.LBModeNoDelay
	}
	set := acceptance.DefaultSettings()
	set.Tags = tags
	token := "Bearer rlspec-selftest-" + bodytmpl.NewUUID()
	tc.Headers.Set("Authorization", token)
	rep, err := runOnPair(ctx, tc, embedded.Options{Fault: f, Profile: p, Align: sv.Align, Store: c.store, Postgres: c.pg, RequireAuth: token,
		Delay: c.overload.DelayMin, DelayMax: c.overload.DelayMax,
		Burst: tc.Burst, Rate: tc.Rate, QueueDelay: tc.Delay, NoDelay: tc.NoDelay(), Replicas: acceptanceReplicas(f, p),
		Penalties: tc.ClaimedPenalties(), IETF: tc.AnswersIETF(), Bypass: tc.ClaimedBypass(), Tiers: tc.ClaimedTiers()}, set)
	if err != nil {
		return AcceptanceResult{}, err
	}
	return tally(rep), nil
}

// runFault runs row's fault's suite: the whole of it, or under WithFocus
// the scenarios that can catch it (none: no suite, an empty result).
func runFault(ctx context.Context, row *Row, fi fault.Fault, c config) (AcceptanceResult, error) {
	tags, run := c.focus.tags(profileOf(fi.Profile), row.Scenarios)
	if !run {
		return newAcceptanceResult(), nil
	}
	return runAcceptance(ctx, fi.Name, fi.Profile, servingOf(fi), tags, c)
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
	tc = embedded.Claim(pair.Point(tc), pair.URLs)
	reached := acceptance.Reached{URLs: pair.URLs, PenaltiesDB: pair.PenaltiesDB}
	return acceptance.Run(ctx, acceptance.Config{Target: tc, Reached: reached, Settings: set, Name: pair.Description, Store: pair, Restarter: pair}, acceptance.WithoutReports())
}

// tally counts a report's verdicts.
func tally(rep *acceptance.Report) AcceptanceResult {
	r := newAcceptanceResult()
	r.Elapsed = rep.Elapsed
	for _, res := range rep.Results {
		switch res.Status {
		case steps.Passed:
			r.Passed++
			r.PassedIDs = append(r.PassedIDs, res.ID)
		case steps.Failed:
			r.Failed++
			r.FailedIDs = append(r.FailedIDs, res.ID)
			r.FailReasons[res.ID] = res.Reason
		case steps.Skipped:
			if strings.HasPrefix(res.Reason, acceptance.NotYetChecked) {
				r.NotYetIDs = append(r.NotYetIDs, res.ID)
				continue
			}
			if res.NotClaimed || strings.HasPrefix(res.Reason, steps.NotClaimed) {
				r.NotClaimedIDs = append(r.NotClaimedIDs, res.ID)
				continue
			}
			r.Skipped++
			r.SkippedIDs = append(r.SkippedIDs, res.ID)
			r.SkipReasons[res.ID] = res.Reason
		}
	}
	slices.Sort(r.PassedIDs)
	slices.Sort(r.FailedIDs)
	slices.Sort(r.SkippedIDs)
	slices.Sort(r.NotClaimedIDs)
	slices.Sort(r.NotYetIDs)
	return r
}

// raceReference hunts races in the reference serving each profile of the
// matrix: the first violation, or the first profile's clean result with
// the time of all.
func raceReference(ctx context.Context, c config) (RaceResult, error) {
	var first RaceResult
	var elapsed time.Duration
	for i, p := range c.suiteProfiles() {
		// The profile bare, and again with the features its faults claim
		// (penalties, served and modelled): both are the reference.
		plain := profileConfig(p)
		tcs := []service.Config{plain}
		if claimed := claimFeatures(plain, fault.None); len(claimed.Features) > len(plain.Features) {
			tcs = append(tcs, claimed)
		}
		for j, tc := range tcs {
			r, err := runRace(ctx, fault.None, tc, DefaultReferenceReplicas, c)
			name := string(p)
			if len(tc.Features) > 0 {
				name += fmt.Sprintf(" with FEATURES=%s", tc.Features)
			}
			if err != nil {
				return r, fmt.Errorf("%s: %w", name, err)
			}
			if r.Found {
				r.Violation = name + ": " + r.Violation
				return r, nil
			}
			elapsed += r.Elapsed
			if i == 0 && j == 0 {
				first = r
			}
		}
	}
	first.Elapsed = elapsed
	return first, nil
}

// runRace hunts races in the embedded reference serving tc's profile (and
// its claimed penalties) with fault f on replicas in-process servers
// sharing one database file.
func runRace(ctx context.Context, f fault.Name, tc service.Config, replicas int, c config) (RaceResult, error) {
	p := tc.Profile
	o := embedded.Options{Fault: f, Store: c.store, Postgres: c.pg, Penalties: tc.ClaimedPenalties()}
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
