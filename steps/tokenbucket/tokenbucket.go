package tokenbucket

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerTokenBucket registers the checks of profile token-bucket (TB-1 …
// TB-7): draining a key, idling it for a number of refill intervals, the
// arrival-curve bound on the recorded exchanges (package bound), refill and
// a steady client below the rate (liveness), concurrency, the 429 and the
// headers. B is RL_BURST, R is RL_RATE.
func (s *state) registerTokenBucket(sc scenario.Stepper) {
	sc.Step(`^the key is drained$`, s.drain)
	sc.Step(`^the key idles (\d+)·B/R seconds$`, s.idleBurstTimes)
	sc.Step(`^the key idles B/R \+ 1 seconds$`, s.idleFull)
	sc.Step(`^the key idles k/R \+ 1 seconds, k = 1$`, s.idlePartial)
	sc.Step(`^B\+(\d+) requests are sent with the key one after another$`, s.burstPlusSequential)
	sc.Step(`^(\d+)B requests are sent with the key one after another$`, s.burstTimesSequential)
	sc.Step(`^(\d+)B requests are sent with the key at once$`, func(n int) error { return s.ConcurrentN(n * s.Burst()) })
	sc.Step(`^B\+(\d+) requests are sent with the key concurrently$`, s.burstPlusConcurrent)
	sc.Step(`^no interval held more than B \+ R·Δt \+ 1 allowed requests of the key$`, s.arrivalBound)
	sc.Step(`^B\+1 requests are sent with the key at once, just after a whole second$`, s.burstAfterSecond)
	sc.Step(`^(?:at least )?(B|k) requests of the key are allowed in a row$`, s.allowedInARow)
	sc.Step(`^a client sending with the key at 0\.9·R for 10/R seconds is never refused$`, s.steadyClient)
	sc.Step(`^exactly B of them were allowed and the rest refused with 429$`, s.exactlyBurst)
	sc.Step(`^the 429 has Retry-After in \[1, ⌈1/R⌉ \+ 1\] and a body matching LIMITED_BODY$`, s.bucket429)
	sc.Step(`^a request sent once Retry-After has passed is allowed$`, s.allowedAtRetry)
	sc.Step(`^every response carried Limit B, Remaining the whole tokens left, and Reset within ⌈B/R⌉ \+ 1 seconds$`, s.bucketHeaders)
}

// drain sends requests of the key one after another until one is refused
// with 429 (the last exchange). Allowed requests beyond what the bucket can
// hold over the run (B + R·Δt + 1, with the 1 s tolerance) break TB-1.
func (s *state) drain() error {
	var run []*httpclient.Exchange
	fresh := len(s.Key.Runs) == 0
	defer func() { s.Key.Runs = append(s.Key.Runs, run) }()
	allowed := 0
	for {
		ex, err := s.SendKeyed()
		if ex != nil {
			run = append(run, ex)
		}
		if err != nil {
			return err
		}
		switch {
		case ex.Refused() && fresh:
			// A fresh key's bucket is full: B allowed before its first 429.
			return check.AllowedAtLeast(s.Refs(), run, s.Burst(), "draining a fresh key: its full bucket before the first 429")
		case ex.Refused():
			return nil
		case ex.Status/100 != 2:
			return scenario.Violate(s.Refs(), "draining a key: each request allowed or refused", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		allowed++
		span := ex.Received.Sub(run[0].Sent) + bound.DefaultTolerance
		if float64(allowed) > float64(s.Burst())+s.Rate()*span.Seconds()+1 {
			if err := s.arrivalUpper(); err != nil {
				return err
			}
			return scenario.Violate(clause.Of(clause.TB1), "draining a key", fmt.Sprintf("a 429 after at most %d + %g/s·Δt + 1 allowed", s.Burst(), s.Rate()),
				fmt.Sprintf("%d allowed in %s", allowed, span.Round(time.Millisecond)), run...)
		}
		if allowed > 4*s.Burst()+10 {
			return scenario.Precondition(scenario.Violate(s.Refs(), "draining a key", "a 429 after about B requests one after another",
				fmt.Sprintf("%d allowed over %s: each request takes about as long as the bucket takes to refill a token (1/R = %s); configure a lower RL_RATE", allowed, ex.Received.Sub(run[0].Sent).Round(time.Millisecond), s.PerToken()), ex))
		}
	}
}

// idle waits d after the last exchange (the drain's 429) came back.
func (s *state) idle(d time.Duration) error {
	if s.Last.Ex == nil {
		return scenario.Precondition(fmt.Errorf("idle: the key has sent nothing"))
	}
	if err := s.FitsMaxWait(d, "idling the key"); err != nil {
		return err
	}
	return s.WaitUntil(s.Last.Ex.Received.Add(d))
}

func (s *state) idleBurstTimes(n int) error {
	return s.idle(time.Duration(n*s.Burst()) * s.PerToken())
}

func (s *state) idleFull() error {
	return s.idle(time.Duration(s.Burst())*s.PerToken() + time.Second)
}

// partial is TB-3's k: 1, the shortest idle the clause allows. A larger k
// leaves less room between k/R + 1 s and B/R, where a bucket refilled only
// a whole period after its last refill is told apart; on a loaded machine
// a slow drain used up that room (tb-binary-refill was missed).
const partial = 1

func (s *state) idlePartial() error {
	return s.idle(time.Duration(partial)*s.PerToken() + time.Second)
}

func (s *state) burstPlusSequential(k int) error {
	_, err := s.SendRun(s.Burst() + k)
	return err
}

func (s *state) burstTimesSequential(n int) error {
	_, err := s.SendRun(n * s.Burst())
	return err
}

// burstPlusConcurrent releases B+k requests of the key at once.
func (s *state) burstPlusConcurrent(k int) error { return s.ConcurrentN(s.Burst() + k) }

// arrivalBound is TB-1 on every exchange of the scenario.
// Its lower bounds show the key was allowed what a correct bucket allows.
func (s *state) arrivalBound() error {
	if err := s.arrivalUpper(); err != nil {
		return err
	}
	if err := s.FreshKeyAllowed(s.Burst()); err != nil {
		return err
	}
	return s.RefilledAllowed()
}

// arrivalUpper is TB-1's upper bound alone: no interval held more than
// B + R·Δt + 1 allowed.
func (s *state) arrivalUpper() error {
	return s.BoundViolation(bound.TokenBucket(s.Events(), s.Burst(), s.Rate(), bound.DefaultTolerance))
}

// burstAfterSecond releases B+1 requests of the fresh key together 20 ms
// after the next whole second, so that a server keeping whole seconds sees
// them in one second (TB-2).
func (s *state) burstAfterSecond() error {
	if err := s.WaitUntil(s.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)); err != nil {
		return err
	}
	return s.ConcurrentN(s.Burst() + 1)
}

// allowedInARow is TB-3: after the idle, B (or k) requests one after
// another are each allowed.
func (s *state) allowedInARow(which string) error {
	n := s.Burst()
	if which == "k" {
		n = partial
	}
	drained := s.Last.Ex
	run, err := s.SendRun(n)
	if err != nil {
		return err
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of %d after a drained key idled %s", i+1, n, run[0].Sent.Sub(drained.Received).Round(time.Millisecond)),
				"2xx", fmt.Sprintf("HTTP %d", ex.Status), append([]*httpclient.Exchange{drained}, run[:i+1]...)...)
		}
	}
	return nil
}

// steadyClient is TB-4: after the drain's 429 came back at t0, request i is
// sent no earlier than t0 + i/(0.9·R), for 10/R seconds. Each is decided
// at least i/(0.9·R) after the 429 was, when the bucket holds at least
// 1 + i/9 tokens: a refusal is a violation whatever the timing.
func (s *state) steadyClient() error {
	drained := s.Last.Ex
	every := time.Duration(float64(time.Second) / (0.9 * s.Rate()))
	n := int((time.Duration(10) * s.PerToken()) / every)
	if err := s.FitsMaxWait(10*s.PerToken(), "a steady client for 10/R"); err != nil {
		return err
	}
	run := []*httpclient.Exchange{drained}
	for i := 1; i <= n; i++ {
		if err := s.WaitUntil(drained.Received.Add(time.Duration(i) * every)); err != nil {
			return err
		}
		ex, err := s.SendKeyed()
		if ex != nil {
			run = append(run, ex)
		}
		if err != nil {
			return err
		}
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of a client sending every %s (0.9·R) after draining the key", i, every.Round(time.Millisecond)),
				"2xx", fmt.Sprintf("HTTP %d", ex.Status), run...)
		}
	}
	return nil
}

// exactlyBurst is TB-2 and TB-5 on the last batch, of a fresh key: exactly
// B allowed, the rest 429. Fewer is a violation whatever the timing (a
// fresh key holds B); more is one only beyond what the bucket may have
// refilled while the batch was decided (R·(last receive − first send),
// whole tokens, plus a second where the batch crossed a whole second):
// within it the count decides nothing, and the scenario runs again. An
// undecided answer (scenario.Undecided) leaves only more a verdict.
func (s *state) exactlyBurst() error {
	exs := s.Batch.Exchanges
	allowed := 0
	decided, undecided := scenario.Decided(exs)
	for _, ex := range decided {
		switch {
		case ex.Status/100 == 2:
			allowed++
		case !ex.Refused():
			return scenario.Violate(s.Refs(), "each request is allowed or refused", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
	}
	first, last := scenario.Span(exs)
	took := last.Sub(first)
	if first.Unix() != last.Unix() {
		took += bound.DefaultTolerance // a server of whole seconds may see one more
	}
	refill := int(s.Rate() * took.Seconds())
	if len(undecided) > 0 && allowed <= s.Burst()+refill {
		s.AssumeDecided(len(exs), undecided)
		return nil
	}
	if allowed > s.Burst() && allowed <= s.Burst()+refill {
		// tokens may have come back while the batch was answered: no
		// verdict on its count
		s.Assume("the batch within one second and less than 1/R", func() string {
			return fmt.Sprintf("%d requests took %s from %s: %d token(s) may have come back", len(exs), last.Sub(first).Round(time.Millisecond), first.Format("15:04:05.000"), refill)
		})
		return nil
	}
	if allowed != s.Burst() {
		want := fmt.Sprintf("exactly %d allowed", s.Burst())
		if refill > 0 && allowed > s.Burst() {
			want = fmt.Sprintf("%d to %d allowed (%d refilled in the %s the batch took, with a whole second's rounding where it crossed one)", s.Burst(), s.Burst()+refill, refill, last.Sub(first).Round(time.Millisecond))
		}
		return scenario.Violate(s.Refs(), fmt.Sprintf("%d concurrent requests on a fresh key", len(exs)), want, fmt.Sprintf("%d allowed", allowed), exs...)
	}
	return nil
}

// bucket429 is TB-6's first sentence on the last exchange (the drain's
// 429), and LIMITED_BODY.
func (s *state) bucket429() error {
	ex := s.Last.Ex
	ra, ok, err := s.RetryAfterOf(ex)
	if err != nil {
		return err
	}
	most := keyed.Seconds(s.PerToken()) + 1
	if ok && (ra < 1 || ra > most) {
		return scenario.Violate(s.Refs(), "Retry-After on a 429", fmt.Sprintf("in [1, %d] (⌈1/R⌉ + 1, R = %g/s)", most, s.Rate()), fmt.Sprintf("%d", ra), ex)
	}
	return s.LimitedBody(ex, ra)
}

// allowedAtRetry is TB-6's second sentence: a request sent Retry-After
// seconds after the 429 came back (nothing spent meanwhile) is allowed.
func (s *state) allowedAtRetry() error { return s.AllowedAfterRetryPlus(0) }

// bucketHeaders is TB-7 over the key's first run (a fresh key): Limit B on
// each; Remaining of an allowed request between B − (allowed so far) and
// that plus what the bucket refilled since the run began, with the 1 s
// tolerance (R·(receive − first send + 1 s)), never above B − 1; 0 on a 429;
// Reset in [now, now + ⌈B/R⌉ + 1] with now anywhere in [send, receive].
func (s *state) bucketHeaders() error {
	run := s.Key.Runs[0]
	start := run[0].Sent
	allowed := 0
	for i, ex := range run {
		rl, err := check.HeadersOf(ex, s.Refs())
		if err != nil {
			return err
		}
		if rl.Limit != int64(s.Burst()) {
			return scenario.Violate(s.Refs(), ex.Answer.FieldName(dialect.FieldLimit), fmt.Sprintf("%d (B)", s.Burst()), fmt.Sprintf("%d", rl.Limit), ex)
		}
		lo, hi := ex.Sent.Unix(), ex.Received.Unix()+1+keyed.Seconds(time.Duration(s.Burst())*s.PerToken())+1
		if rl.Reset < lo || rl.Reset > hi {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of request %d", ex.Answer.FieldName(dialect.FieldReset), i+1), fmt.Sprintf("in [%d, %d] (now + ⌈B/R⌉ + 1)", lo, hi), fmt.Sprintf("%d", rl.Reset), ex)
		}
		if ex.Status/100 != 2 {
			if rl.Remaining != 0 {
				return scenario.Violate(s.Refs(), ex.Answer.FieldName(dialect.FieldRemaining)+" on a 429", "0", fmt.Sprintf("%d", rl.Remaining), ex)
			}
			continue
		}
		allowed++
		least := int64(s.Burst() - allowed)
		most := min(least+int64(s.Rate()*(ex.Received.Sub(start)+bound.DefaultTolerance).Seconds()), int64(s.Burst()-1))
		if rl.Remaining < least || rl.Remaining > most {
			want := fmt.Sprintf("%d (B − %d allowed)", least, allowed)
			if most > least {
				want = fmt.Sprintf("in [%d, %d] (B − %d allowed, plus the tokens refilled since the first request, 1 s tolerance)", least, most, allowed)
			}
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of allowed request %d", ex.Answer.FieldName(dialect.FieldRemaining), i+1), want, fmt.Sprintf("%d", rl.Remaining), run[:i+1]...)
		}
	}
	return nil
}
