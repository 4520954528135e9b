package prd

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerWindow registers the steps of a window that passes and of Reset
// (AC4, FR-5).
func (s *World) registerWindow(sc scenario.Stepper) {
	sc.Step(`^the window of the bucket has passed$`, s.windowPassed)
	sc.Step(`^I wait (\d+) seconds inside the window$`, s.waitInsideWindow)
	sc.Step(`^Reset is about now plus the window$`, s.resetAboutNowPlusWindow)
	sc.Step(`^Reset is the same as on the first response$`, s.resetSameAsFirst)
	sc.Step(`^rides race for the bucket as its window passes$`, s.raceBoundary)
	sc.Step(`^the racing rides got at most the limit of 200s with distinct Remaining values$`, s.boundaryOnce)
}

// windowPassed moves the bucket's window into the past (TARGET_DB) or waits
// for it to pass (up to MAX_WAIT); that it had passed at the server too is
// verified afterwards.
func (s *World) windowPassed() error {
	s.Bucket.from = s.Recorded() // the next request opens a new window
	if s.Env().Seeder != nil {
		return s.Env().Seeder.ExpireWindow(s.Ctx(), s.Bucket.ID)
	}
	until, err := s.windowEnd()
	if err != nil {
		return err
	}
	reset := until.Add(-time.Second)
	s.Assume("the window had passed at the server", func() string { return s.passedAtServer(reset) })
	return s.WaitUntil(until)
}

// passedAtServer checks that the request sent after waiting for a window to
// pass was decided after the window's end (reset) by the server's clock:
// its Date header, when it has one, is not before reset. (The harness
// waited a second past reset by its own clock; a server clock further
// behind would decide the request in the old window.)
func (s *World) passedAtServer(reset time.Time) string {
	ex := s.Last.Ex
	if ex == nil || ex.Err != nil {
		return ""
	}
	date, err := http.ParseTime(ex.RespHeader.Get("Date"))
	if err != nil || !date.Before(reset) {
		return ""
	}
	return fmt.Sprintf("the response's Date %s is before the window's end %s (X-RateLimit-Reset %d): the server's clock is behind the harness's",
		date.UTC().Format(time.RFC3339), reset.UTC().Format(time.RFC3339), reset.Unix())
}

// windowEnd is when the window the bucket's first request opened has
// certainly passed, by rlspec's clock and RL_WINDOW: W after that
// request's response came back, and a second for the server's rounding
// (never the target's own Reset, which is under test); a SKIP when that is
// beyond MAX_WAIT.
func (s *World) windowEnd() (time.Time, error) {
	first := s.Bucket.First
	if first == nil {
		return time.Time{}, errors.New("no request on this bucket yet")
	}
	until := first.Received.Add(s.Env().Config.Window + time.Second)
	if wait := until.Sub(s.Env().Clock()); wait > s.Env().MaxWait {
		return time.Time{}, scenario.Skip("needs the window to pass (%s more), longer than MAX_WAIT=%s, and TARGET_DB is not set",
			wait.Round(time.Second), s.Env().MaxWait)
	}
	return until, nil
}

// shortWindow is the window length below which the first request of a
// bucket is sent at the start of a wall-clock second (see alignWindowStart).
const shortWindow = 10 * time.Second

// alignWindowStart delays a bucket's first request, when the window is short
// and windows are waited out rather than seeded, to just after a whole
// second. A server that stores Reset as whole unix seconds may round the
// window's end down by up to a second; starting on the second keeps a 3 s
// window at nearly 3 s, so two samples 2 s apart still fit inside it.
//
// A run once more after a broken time assumption (see settle) aligns even
// with TARGET_DB, where windows are otherwise expired rather than waited.
func (s *World) alignWindowStart() error {
	if s.Env().Config.Window >= shortWindow || (s.Env().Seeder != nil && s.Rerun() == "") {
		return nil
	}
	now := s.Env().Clock()
	return s.WaitUntil(now.Truncate(time.Second).Add(time.Second + 5*time.Millisecond))
}

// secondSampleRoom is the time a second sample is given, at least, to be
// answered before the window ends.
const secondSampleRoom = 250 * time.Millisecond

// waitInsideWindow waits until secs have passed since the response to the
// bucket's first request — the first sample of a "does not move" check —
// provided the window (started by that request, and ending no later than
// its Reset) still has room for the second sample. That the samples were
// that far apart and inside the window is verified afterwards.
func (s *World) waitInsideWindow(secs int) error {
	first := s.Bucket.First
	if first == nil {
		return errors.New("no request on the bucket yet")
	}
	d := time.Duration(secs) * time.Second
	// The earliest the window can end, by rlspec's clock and RL_WINDOW: W
	// after the whole second the first request was sent in (a server
	// keeping whole seconds); the target's Reset is under test.
	end := first.Sent.Truncate(time.Second).Add(s.Env().Config.Window)
	// The server decided the first request by the time its response came
	// back, perhaps long after it was sent: count the gap from there.
	at := first.Received.Add(d)
	if s.Env().Clock().After(at) {
		at = s.Env().Clock()
	}
	// A quarter second is left for the second sample's own round trip;
	// that it came back inside the window is verified afterwards.
	what := fmt.Sprintf("two samples %s apart at the server inside one window", d)
	if at.Add(secondSampleRoom).After(end) {
		// A first request that queued long leaves no room: run the
		// scenario once more (see settle) before skipping it.
		why := fmt.Sprintf("RL_WINDOW=%s leaves no room for them (first request sent at %s, answered at %s; the window ends by %s)",
			s.Env().Config.Window, first.Sent.Format(time.RFC3339Nano), first.Received.Format(time.RFC3339Nano), end.Format(time.RFC3339Nano))
		s.Assume(what, func() string { return why })
		return scenario.Skip("%s: %s", what, why)
	}
	s.Assume(what, func() string { return scenario.SamplesApart(first, s.Last.Ex, d, end) })
	return s.WaitUntil(at)
}

func (s *World) resetAboutNowPlusWindow() error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	lo := ex.Sent.Add(s.Env().Config.Window - check.ClockTolerance).Unix()
	hi := ex.Received.Add(s.Env().Config.Window + check.ClockTolerance).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return scenario.Violate(clause.Of(clause.AC4, clause.FR5), "X-RateLimit-Reset of a new window",
			fmt.Sprintf("about now + %s: unix seconds in [%d, %d]", s.Env().Config.Window, lo, hi), check.Describe(ex), ex)
	}
	return nil
}

func (s *World) resetSameAsFirst() error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	first := s.Bucket.First
	if first == nil {
		return errors.New("no first response")
	}
	a, err := check.HeadersOf(first, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	b, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if d := b.Reset - a.Reset; d < -1 || d > 1 {
		return scenario.Violate(clause.Of(clause.FR5, clause.AC3), "X-RateLimit-Reset does not move within a window",
			fmt.Sprintf("%d ±1 (the first response's Reset, %s earlier)", a.Reset, ex.Sent.Sub(first.Sent).Round(100*time.Millisecond)),
			check.Describe(ex), first, ex)
	}
	return nil
}

// boundaryRounds is how many times the boundary race is run when TARGET_DB
// can expire the window on demand: a lost race shows only sometimes.
const boundaryRounds = 25

// raceBoundary sends more rides than the limit at once, released at the
// instant the bucket's window ends (or right after TARGET_DB expired it).
func (s *World) raceBoundary() error {
	n := min(s.Limit()+3, 64)
	rounds := 1
	if s.Env().Seeder != nil {
		rounds = boundaryRounds
	}
	s.Batch = scenario.Batch{}
	s.Bucket.until = s.Recorded() // the race spans windows by design
	for round := range rounds {
		var release time.Time
		if s.Env().Seeder != nil {
			if round > 0 {
				if err := s.Env().Seeder.SetRemaining(s.Ctx(), s.Bucket.ID, 0); err != nil {
					return err
				}
			}
			if err := s.Env().Seeder.ExpireWindow(s.Ctx(), s.Bucket.ID); err != nil {
				return err
			}
		} else {
			until, err := s.windowEnd()
			if err != nil {
				return err
			}
			release = s.boundaryAim(until.Add(-time.Second))
		}
		reqs, err := s.Requests(n, bodytmpl.Bucket(s.Bucket.ID))
		if err != nil {
			return err
		}
		out, err := s.Fire(s.Client(), reqs, release)
		s.Batch.Exchanges = out
		if err != nil {
			return err
		}
		s.Batch.Rounds = append(s.Batch.Rounds, out)
	}
	return nil
}

func (s *World) boundaryOnce() error {
	if len(s.Batch.Rounds) == 0 {
		return errors.New("no boundary race was run")
	}
	for i, round := range s.Batch.Rounds {
		if err := s.resetOnce(round, i+1, len(s.Batch.Rounds)); err != nil {
			return err
		}
	}
	return nil
}

func (s *World) resetOnce(round []*httpclient.Exchange, i, rounds int) error {
	var got []int64
	seen := map[int64]bool{}
	dup := false
	for _, ex := range round {
		if ex.Status != http.StatusOK {
			continue
		}
		rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
		if err != nil {
			return err
		}
		dup = dup || seen[rl.Remaining]
		seen[rl.Remaining] = true
		got = append(got, rl.Remaining)
	}
	sort.Slice(got, func(i, j int) bool { return got[i] > got[j] })
	consecutive := true
	for i, r := range got {
		consecutive = consecutive && r == int64(s.Limit()-1-i)
	}
	if s.Env().Seeder != nil {
		// The window was expired before the race: a correct bucket
		// resets once and lets min(racers, N) through.
		lost := 0
		for _, ex := range round {
			if ex.Err != nil {
				lost++
			}
		}
		if err := check.AllowedAtLeast(s.Refs(), round, min(len(round)-lost, s.Limit())-lost, fmt.Sprintf("%d requests racing after the window expired (round %d of %d)", len(round), i, rounds)); err != nil {
			return err
		}
	}
	if len(got) > s.Limit() || dup || !consecutive {
		return scenario.Violate(clause.Of(clause.AC4, clause.FR5), fmt.Sprintf("%d requests racing at the window boundary (round %d of %d)", len(round), i, rounds),
			fmt.Sprintf("the bucket resets once: at most %d× 200, Remaining %d, %d, … each once", s.Limit(), s.Limit()-1, s.Limit()-2),
			fmt.Sprintf("%d× 200 with Remaining %v", len(got), got), round...)
	}
	return nil
}

// boundaryAim is when the racing rides are released: the bucket's Reset
// when it agrees with rlspec's clock (between W after the whole second the
// first request was sent in and latest), so that they race the server's
// own boundary; latest otherwise. Only the aim: the verdict does not rest
// on it.
func (s *World) boundaryAim(latest time.Time) time.Time {
	first := s.Bucket.First
	if s.Bucket.spent == nil || first == nil {
		return latest
	}
	rl, err := s.Bucket.spent.RateLimit()
	if err != nil {
		return latest
	}
	reset := time.Unix(rl.Reset, 0)
	if reset.Before(first.Sent.Truncate(time.Second).Add(s.Env().Config.Window)) || reset.After(latest) {
		return latest
	}
	return reset
}
