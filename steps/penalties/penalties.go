package penalties

import (
	"context"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// PenaltyAger ages a key's violation record in the target's database
// (TARGET_DB), for PN-5; DBSeeder is one.
type PenaltyAger interface {
	AgePenalty(ctx context.Context, key string, by time.Duration) error
}

// penaltyState is what a penalties scenario saw of its key: the
// violations it counted (429s of the algorithm, none under a penalty), the
// penalties those started, and the key's last allowed request.
type penaltyState struct {
	violations  int
	penalties   []seenPenalty
	lastAllowed *httpclient.Exchange
}

// seenPenalty is a 429 that started a penalty: the violation's number
// and the penalty's end as the response said it.
type seenPenalty struct {
	ex        *httpclient.Exchange
	violation int
	until     int64 // unix seconds
}

// registerPenalties registers the steps of feature penalties (PN-1 … PN-5).
func (s *state) registerPenalties(sc scenario.Stepper) {
	sc.Step(`^the instance with penalties$`, s.penaltyInstance)
	sc.Step(`^the key violates its limit until a penalty starts$`, s.violateUntilPenalty)
	sc.Step(`^the penalty lasts its tier's duration from the violation$`, s.penaltyDuration)
	sc.Step(`^every request of the key until penalty_until gets 429 under the penalty$`, s.refusedUnderPenalty)
	sc.Step(`^once the penalty and the key's window have passed the key gets N requests allowed$`, s.releasedWithQuota)
	sc.Step(`^the penalty started at the first tier's count, its 429s before it carrying none$`, s.penaltyAtFirstLevel)
	sc.Step(`^the penalty started at the violation after the previous penalty's$`, s.penaltyEscalated)
	sc.Step(`^the key's violation record is aged by 24 hours through TARGET_DB$`, s.agePenalty)
	sc.Step(`^the key violates its limit once more$`, s.violateOnce)
	sc.Step(`^that violation counted as the first$`, s.countedAsFirst)
}

// levels are RL_PENALTIES: the violation counts at which a penalty starts
// and how long it lasts. (The word "tiers" in rlspec's steps names the
// tiers feature's endpoints with limits of their own, package ops.)
func (s *state) levels() model.Penalties { return model.Penalties{Tiers: s.Env().Config.Penalties} }

// penaltyInstance points the scenario at TARGET_URL_PENALTIES (default
// TARGET_URL); a key made after this step sends there.
func (s *state) penaltyInstance() error {
	cfg := s.Env().Config
	if err := s.Env().Configured(profile.Penalties, len(cfg.Penalties) > 0, "penalties are claimed but RL_PENALTIES gives no tiers"); err != nil {
		return err
	}
	s.SetBase(cfg.PenaltyTarget())
	return nil
}

// penaltyOf reads a 429 body's penalty_active and penalty_until (at the
// top level, as spec/003's RateLimitResult, or under /error).
func penaltyOf(ex *httpclient.Exchange) (active bool, until int64) {
	return dialect.PenaltyOf(ex.RespBody)
}

// violateUntilPenalty sends requests with the key, one after another,
// until a 429 carries a penalty; each 429 before it is a violation. A key
// whose violations pass the first level's count by two without a penalty
// is a violation of PN-1.
func (s *state) violateUntilPenalty() error {
	first := s.Env().Config.Penalties[0].Count
	counted := 0
	for sent := 0; sent < 4*s.Limit()+2*first+8; sent++ {
		ex, err := s.SendKeyed()
		if err != nil {
			return err
		}
		switch {
		case ex.Status/100 == 2:
			s.pen.lastAllowed = ex
			continue
		case !ex.Refused():
			return scenario.Violate(s.Refs(), "a request of a key violating its limit", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		s.pen.violations++
		counted++
		if active, until := penaltyOf(ex); active {
			s.pen.penalties = append(s.pen.penalties, seenPenalty{ex: ex, violation: s.pen.violations, until: until})
			return nil
		}
		if counted > first+1 && s.levels().Duration(s.pen.violations) > 0 {
			break
		}
	}
	return scenario.Violate(clause.Of(clause.PN1, clause.PN3), "violations of one key (429s of the algorithm)",
		fmt.Sprintf("a 429 with penalty_active true by violation %d (RL_PENALTIES=%s)", first, model.FormatPenaltyTiers(s.Env().Config.Penalties)),
		fmt.Sprintf("%d violations without one", s.pen.violations), s.Last.Ex)
}

// current is the last penalty seen.
func (s *state) current() (seenPenalty, error) {
	if len(s.pen.penalties) == 0 {
		return seenPenalty{}, scenario.Precondition(fmt.Errorf("no penalty was seen"))
	}
	return s.pen.penalties[len(s.pen.penalties)-1], nil
}

// penaltyDuration is PN-1 (and PN-3) on the violating response:
// penalty_until is the violation's time plus its level's duration, and
// Retry-After the time to it, each ±1 s beyond the exchange's interval.
func (s *state) penaltyDuration() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	d := s.levels().Duration(p.violation)
	lo, hi := p.ex.Sent.Add(d-time.Second).Unix(), p.ex.Received.Add(d+time.Second+999*time.Millisecond).Unix()
	if p.until < lo || p.until > hi {
		return scenario.Violate(s.Refs(), fmt.Sprintf("penalty_until of violation %d (tier %s)", p.violation, d),
			fmt.Sprintf("in [%d, %d]", lo, hi), fmt.Sprintf("%d", p.until), p.ex)
	}
	if !service.EscalationDecidable(s.Env().Config.Penalties) {
		s.SetNote("escalation is not decidable: successive tiers' durations differ by less than 3 s")
	}
	return s.underPenalty(p, p.ex)
}

// underPenalty checks that ex is a 429 under penalty p: penalty_active,
// the same penalty_until (±1 s) and Retry-After ≈ penalty_until − now.
func (s *state) underPenalty(p seenPenalty, ex *httpclient.Exchange) error {
	active, until := penaltyOf(ex)
	if !ex.Refused() || !active || until < p.until-1 || until > p.until+1 {
		return scenario.Violate(clause.Of(clause.PN1), fmt.Sprintf("a request %s before penalty_until %d", time.Unix(p.until, 0).Sub(ex.Received).Round(time.Millisecond), p.until),
			fmt.Sprintf("429 with penalty_active true and penalty_until %d (±1)", p.until),
			fmt.Sprintf("HTTP %d %s", ex.Status, check.Truncate(ex.RespBody)), p.ex, ex)
	}
	ra, ok, err := s.RetryAfterOf(ex)
	if err != nil || !ok {
		return err
	}
	lo, hi := until-ex.Received.Unix()-2, until-ex.Sent.Unix()+1
	if ra < lo || ra > hi {
		return scenario.Violate(clause.Of(clause.PN1), "Retry-After under a penalty", fmt.Sprintf("penalty_until − now: in [%d, %d]", lo, hi), fmt.Sprintf("%d", ra), ex)
	}
	return nil
}

// refusedUnderPenalty sends a request of the key every 250 ms until 1 s
// before penalty_until; each gets 429 under the penalty (PN-1) and none
// counts as a violation or spends (PN-4, checked afterwards).
func (s *state) refusedUnderPenalty() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	return s.retryUnder(p, p.ex.Received.Add(250*time.Millisecond), time.Unix(p.until, 0).Add(-time.Second))
}

// releasedWithQuota waits until penalty_until + 1 s and the key's last
// allowed request + W + 1 s have passed, then sends N requests: the
// algorithm serves the key again (PN-2) with its whole quota — requests
// refused under the penalty spent nothing and did not prolong it (PN-4).
func (s *state) releasedWithQuota() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	due := time.Unix(p.until, 0).Add(time.Second)
	if a := s.pen.lastAllowed; a != nil && a.Received.Add(s.Window()+time.Second).After(due) {
		due = a.Received.Add(s.Window() + time.Second)
	}
	if err := s.WaitUntil(due); err != nil {
		return err
	}
	run, err := s.SendRun(s.Limit())
	if err != nil {
		return err
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of %d after penalty_until %d + 1 s and the key's window", i+1, len(run), p.until),
				"2xx: the algorithm serves the key with its whole quota", fmt.Sprintf("HTTP %d %s", ex.Status, check.Truncate(ex.RespBody)), p.ex, ex)
		}
		s.pen.lastAllowed = ex
	}
	return nil
}

// penaltyAtFirstLevel is PN-3's second sentence: the first penalty came
// with the first level's count-th violation, the 429s before it without.
func (s *state) penaltyAtFirstLevel() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	if first := s.Env().Config.Penalties[0].Count; p.violation != first {
		return scenario.Violate(clause.Of(clause.PN3), "the violation that starts the first penalty",
			fmt.Sprintf("violation %d (RL_PENALTIES=%s)", first, model.FormatPenaltyTiers(s.Env().Config.Penalties)),
			fmt.Sprintf("violation %d", p.violation), p.ex)
	}
	return nil
}

// penaltyEscalated is PN-3's first sentence: after a penalty the key's
// next violation starts the next penalty (its duration is checked by
// penaltyDuration, from the level of that violation's count).
func (s *state) penaltyEscalated() error {
	ps := s.pen.penalties
	if len(ps) < 2 {
		return scenario.Precondition(fmt.Errorf("two penalties are needed, %d seen", len(ps)))
	}
	prev, cur := ps[len(ps)-2], ps[len(ps)-1]
	if cur.violation != prev.violation+1 {
		return scenario.Violate(clause.Of(clause.PN3), "the violation after a penalty", fmt.Sprintf("violation %d starts a penalty", prev.violation+1),
			fmt.Sprintf("violation %d did", cur.violation), prev.ex, cur.ex)
	}
	return nil
}

// agePenalty moves the key's violation record 24 h (and 2 s) into the
// past through TARGET_DB (PN-5), ending its penalty.
func (s *state) agePenalty() error {
	seeder := s.Env().Seeder
	if s.Env().PenaltySeeder != nil {
		seeder = s.Env().PenaltySeeder
	}
	ager, ok := seeder.(PenaltyAger)
	if seeder == nil || !ok {
		return scenario.Skip("PN-5 needs TARGET_DB to age the key's violation record")
	}
	if err := ager.AgePenalty(s.Ctx(), s.Key.Value, model.PenaltyMemory+2*time.Second); err != nil {
		return scenario.Precondition(err)
	}
	return nil
}

// violateOnce sends requests with the key until one is refused.
func (s *state) violateOnce() error {
	for range s.Limit() + 1 {
		ex, err := s.SendKeyed()
		if err != nil {
			return err
		}
		if ex.Refused() {
			s.pen.violations++
			return nil
		}
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), "a request of a key violating its limit", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
	}
	return scenario.Violate(s.Refs(), "N+1 requests of one key", "a 429", "none refused", s.Last.Ex)
}

// countedAsFirst is PN-5: the last 429 (a violation after the record was
// aged) takes the penalty of a first violation — none when the first level
// starts later.
func (s *state) countedAsFirst() error {
	ex := s.Last.Ex
	p := seenPenalty{ex: ex, violation: 1}
	active, until := penaltyOf(ex)
	d := s.levels().Duration(1)
	if d == 0 {
		if active {
			return scenario.Violate(clause.Of(clause.PN5), "the first violation after 24 h", "a 429 without a penalty (counts below the first tier)",
				fmt.Sprintf("penalty_until %d", until), ex)
		}
		return nil
	}
	if !active {
		return scenario.Violate(clause.Of(clause.PN5), "the first violation after 24 h", "a 429 with the first tier's penalty", check.Truncate(ex.RespBody), ex)
	}
	p.until = until
	s.pen.penalties = append(s.pen.penalties, p)
	return s.penaltyDuration()
}
