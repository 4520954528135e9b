package selftest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/fixedwindow"
	"github.com/rlspec/rlspec/fault/slidinglog"
	"github.com/rlspec/rlspec/fault/tokenbucket"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps"
)

// headerClauses are each keyed profile's header and refusal scenarios and
// the fault of the header clause that must still be caught in every
// dialect.
var headerClauses = []struct {
	profile   profile.Name
	header    string // the header clause's scenario
	refusal   string // the 429's scenario (Retry-After, body)
	headerBug fault.Name
}{
	{profile.SlidingLog, "SL-7-01", "SL-6-01", slidinglog.SLResetNow},
	{profile.TokenBucket, "TB-7-01", "TB-6-01", tokenbucket.TBLimitFromRemaining},
	{profile.FixedWindow, "FW-5-01", "FW-6-01", fixedwindow.FWLimitFromRemaining},
}

// dialectAnswers are the ways the reference answers (fakeserver's
// RL_DIALECT, RL_RESET_FORMAT, RL_HEADER_PREFIX).
func dialectAnswers() []dialect.Settings {
	var as []dialect.Settings
	for _, f := range dialect.WrittenResetFormats() {
		as = append(as, dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: f})
	}
	return append(as, dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetUnix, Prefix: "X-Rate-Limit-"},
		dialect.Settings{Dialect: dialect.Fields}, dialect.Settings{Dialect: dialect.Dict}, dialect.Settings{Dialect: dialect.IETF},
		dialect.Settings{Dialect: dialect.Status})
}

// dialectRun runs scenarios ids of profile p against the reference (with
// fault f) answering as a, rlspec told explicit (the dialect settings
// named) or not (DIALECT=auto), and returns each scenario's result.
func dialectRun(ctx context.Context, p profile.Name, a dialect.Settings, explicit bool, f fault.Name, ids ...string) (map[string]steps.ScenarioResult, error) {
	return refusalRun(ctx, p, a, explicit, f, "", ids...)
}

// refusalRun is dialectRun with the reference's refusal body rb and rlspec
// told LIMITED_STATUS (a's) and LIMITED_BODY (body, "" the profile's).
func refusalRun(ctx context.Context, p profile.Name, a dialect.Settings, explicit bool, f fault.Name, body string, ids ...string) (map[string]steps.ScenarioResult, error) {
	tc := profileConfig(p)
	tc.LimitedStatus = a.LimitedStatus
	rb := fakeserver.RefusalJSON
	if body != "" {
		b, err := dialect.ParseBody(body)
		if err != nil {
			return nil, err
		}
		tc.LimitedBody, rb = b, fakeserver.RefusalText
		if b.Kind == dialect.BodyNone {
			rb = fakeserver.RefusalEmpty
		}
	}
	if explicit {
		tc.Dialect, tc.ResetFormat, tc.HeaderPrefix = a.Dialect, a.ResetFormat, a.Prefix
	} else {
		tc.Dialect = dialect.Auto
	}
	tc.Headers.Set("Authorization", "Bearer rlspec-dialect-"+bodytmpl.NewUUID())
	set := acceptance.DefaultSettings()
	set.Tags = "@id:" + strings.Join(ids, " or @id:")
	rep, err := runOnPair(ctx, tc, embedded.Options{Profile: p, Fault: f, Answer: a, RefusalBody: rb, Burst: tc.Burst, Rate: tc.Rate, RequireAuth: tc.Headers.Get("Authorization")}, set)
	if err != nil {
		return nil, err
	}
	out := map[string]steps.ScenarioResult{}
	for _, r := range rep.Results {
		out[r.ID] = r
	}
	return out, nil
}

// Issue 24's dialect items: the correct reference, answering in every
// dialect and RESET_FORMAT, passes the header and refusal clauses of every
// keyed profile with DIALECT=auto and with the explicit settings (under
// status the header clause is SKIPPED with the dialect as reason), and the
// header clause's fault is still caught in every dialect that has headers.
func TestHeaderClausesInEveryDialect(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the reference 80 times")
	}
	ctx := context.Background()
	type job struct {
		name string
		run  func() error
	}
	var jobs []job
	for _, hc := range headerClauses {
		for _, a := range dialectAnswers() {
			for _, explicit := range []bool{true, false} {
				name := fmt.Sprintf("%s/%s/%s/explicit=%v", hc.profile, a.Dialect, a.ResetFormat+dialect.ResetFormat(a.Prefix), explicit)
				jobs = append(jobs, job{name, func() error {
					got, err := dialectRun(ctx, hc.profile, a, explicit, fault.None, hc.header, hc.refusal)
					if err != nil {
						return err
					}
					if r := got[hc.refusal]; r.Status != steps.Passed {
						return fmt.Errorf("%s: %s %s", hc.refusal, r.Status, r.Reason)
					}
					r := got[hc.header]
					if a.Dialect == dialect.Status {
						if r.Status != steps.Skipped || !strings.Contains(r.Reason, "DIALECT=status") {
							return fmt.Errorf("%s under status: %s %s, want SKIPPED naming the dialect", hc.header, r.Status, r.Reason)
						}
						return nil
					}
					if r.Status != steps.Passed {
						return fmt.Errorf("%s: %s %s", hc.header, r.Status, r.Reason)
					}
					return nil
				}})
			}
			if a.Dialect == dialect.Status {
				continue
			}
			jobs = append(jobs, job{fmt.Sprintf("%s/%s/%s/fault %s", hc.profile, a.Dialect, a.ResetFormat, hc.headerBug), func() error {
				got, err := dialectRun(ctx, hc.profile, a, true, hc.headerBug, hc.header)
				if err != nil {
					return err
				}
				if r := got[hc.header]; r.Status != steps.Failed {
					return fmt.Errorf("fault %s: %s %s, want FAIL", hc.headerBug, r.Status, r.Reason)
				}
				return nil
			}})
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := j.run(); err != nil {
				mu.Lock()
				t.Errorf("%s: %v", j.name, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// A refusal with another LIMITED_STATUS and a text or empty body passes the
// refusal and algorithm clauses when rlspec is told so (issue 24, false
// verdict 3: LIMITED_BODY=none and text:<regexp>).
func TestRefusalStatusAndBodySettings(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the reference")
	}
	for _, c := range []struct {
		status int
		body   string
	}{{503, "text:(?i)^too many requests"}, {429, "none"}} {
		a := dialect.Settings{Dialect: dialect.XRateLimit, LimitedStatus: c.status}
		got, err := refusalRun(context.Background(), profile.SlidingLog, a, true, fault.None, c.body, "SL-1-01", "SL-4-01", "SL-6-01", "SL-7-01")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"SL-1-01", "SL-4-01", "SL-6-01", "SL-7-01"} {
			if r := got[id]; r.Status != steps.Passed {
				t.Errorf("LIMITED_STATUS=%d LIMITED_BODY=%s: %s %s %s", c.status, c.body, id, r.Status, r.Reason)
			}
		}
	}
}
