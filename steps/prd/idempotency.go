package prd

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerIdempotency registers the steps of idempotent replays (AC6, FR-6).
func (s *World) registerIdempotency(sc scenario.Stepper) {
	sc.Step(`^I replay the last request$`, s.replay)
	sc.Step(`^I send the same Idempotency-Key with a different body$`, s.sameKeyOtherBody)
	sc.Step(`^(\d+) rounds of (\d+) identical rides, one Idempotency-Key per round, are sent concurrently$`, s.concurrentIdentical)
	sc.Step(`^the replay has the first response's status and body$`, s.replayMatches)
	sc.Step(`^the next fresh ride's Remaining is (\d+) below the first response's$`, s.nextBelowFirst)
	sc.Step(`^the next fresh ride's Remaining is the limit minus (\d+)$`, s.nextLimitMinus)
	sc.Step(`^the response is not the cached first response$`, s.notCached)
	sc.Step(`^none of the concurrent rides got a 5xx$`, s.no5xx)
}

func (s *World) replay() error {
	if s.Last.Ex == nil {
		return errors.New("no request to replay")
	}
	ex, err := s.Send(s.Client(), s.Last.Req)
	s.Last = scenario.Last{Req: s.Last.Req, Ex: ex, Keyed: s.Last.Ex}
	return err
}

func (s *World) sameKeyOtherBody() error {
	if s.Last.Ex == nil {
		return errors.New("no earlier request")
	}
	r, err := s.Request(bodytmpl.Bucket(s.Bucket.ID))
	if err != nil {
		return err
	}
	if bytes.Equal(r.Body, s.Last.Req.Body) {
		return scenario.Skip("BODY_TEMPLATE renders the same body twice, so no different body can be sent with the same key; put {{uuid}} in a field your service accepts (a timestamp repeats within its second)")
	}
	r.IdempotencyKey = s.Last.Req.IdempotencyKey
	ex, err := s.Send(s.Client(), r)
	s.Last = scenario.Last{Req: r, Ex: ex, Keyed: s.Last.Ex}
	return err
}

// concurrentIdentical sends rounds bursts of n identical requests (one key
// and body per round): a lost race between the replay lookup and the spend
// shows only sometimes, so the burst is repeated.
//
// The check after it rests on every request, to the next fresh ride, being
// decided in one window: that is verified afterwards.
func (s *World) concurrentIdentical(rounds, n int) error {
	if rounds >= s.Limit() {
		// The settings cannot set the scenario up: no verdict either way.
		return scenario.Skip("the scenario spends %d units in its rounds and one more on the fresh ride it checks; RL_LIMIT=%d has fewer: run it with a larger RL_LIMIT", rounds, s.Limit())
	}
	s.Batch = scenario.Batch{}
	if s.Bucket.First == nil {
		if err := s.alignWindowStart(); err != nil {
			return err
		}
	}
	s.AssumeOneWindow(s.Recorded(), -1)
	for range rounds {
		r, err := s.Request(bodytmpl.Bucket(s.Bucket.ID))
		if err != nil {
			return err
		}
		reqs := make([]httpclient.Request, n)
		for i := range reqs {
			reqs[i] = r
		}
		out, err := s.Fire(s.Client(), reqs, time.Time{})
		s.Batch.Exchanges = append(s.Batch.Exchanges, out...)
		s.Batch.Rounds = append(s.Batch.Rounds, out)
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *World) replayMatches() error {
	orig, replay := s.Last.Keyed, s.Last.Ex
	if orig == nil || replay == nil || orig == replay {
		return errors.New("no replay to compare")
	}
	if orig.Status != replay.Status || !bytes.Equal(orig.RespBody, replay.RespBody) {
		return scenario.Violate(clause.Of(clause.AC6, clause.FR6), "an idempotent replay returns the cached response",
			fmt.Sprintf("the first response again: HTTP %d %s", orig.Status, check.Truncate(orig.RespBody)),
			check.Describe(replay), orig, replay)
	}
	return nil
}

// nextFresh sends a fresh ride (new key) on the bucket and returns its
// Remaining.
func (s *World) nextFresh() (*httpclient.Exchange, int64, error) {
	_, ex, err := s.SendFresh(s.Client(), bodytmpl.Bucket(s.Bucket.ID), nil)
	if err != nil {
		return ex, 0, err
	}
	rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	return ex, rl.Remaining, err
}

func (s *World) nextBelowFirst(n int) error {
	if s.Last.Keyed == nil {
		return errors.New("no first response")
	}
	first, err := check.HeadersOf(s.Last.Keyed, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	ex, got, err := s.nextFresh()
	if err != nil {
		return err
	}
	if want := first.Remaining - int64(n); got != want {
		return scenario.Violate(clause.Of(clause.AC6, clause.FR6), "a replay spends nothing",
			fmt.Sprintf("the next fresh request's Remaining %d (first response's %d minus %d)", want, first.Remaining, n),
			check.Describe(ex), s.Exchanges()...)
	}
	return nil
}

func (s *World) nextLimitMinus(n int) error {
	ex, got, err := s.nextFresh()
	if err != nil {
		return err
	}
	if want := int64(s.Limit() - n); got != want {
		return scenario.Violate(clause.Of(clause.AC6, clause.FR6), "concurrent identical requests spend one unit",
			fmt.Sprintf("the next fresh request's Remaining %d (limit - %d)", want, n),
			check.Describe(ex)+"; "+s.spentByRounds(got), append(s.Batch.Exchanges, ex)...)
	}
	return nil
}

// spentByRounds says how many units the rounds of identical concurrent
// requests on a fresh bucket spent, by the Remaining of the fresh ride after
// them (which spent one itself), and how many 200s each round got.
func (s *World) spentByRounds(remaining int64) string {
	rounds := s.Batch.Rounds
	ok := make([]int, len(rounds))
	for i, round := range rounds {
		for _, ex := range round {
			if ex.Status == http.StatusOK {
				ok[i]++
			}
		}
	}
	n := 0
	if len(rounds) > 0 {
		n = len(rounds[0])
	}
	return fmt.Sprintf("the %d rounds of %d identical requests spent %d units (one per round is %d); 200s per round: %v",
		len(rounds), n, int64(s.Limit())-1-remaining, len(rounds), ok)
}

func (s *World) notCached() error {
	orig, ex := s.Last.Keyed, s.Last.Ex
	if orig == nil || ex == nil || orig == ex {
		return errors.New("no second response")
	}
	if ex.Status == http.StatusConflict || ex.Status == http.StatusUnprocessableEntity {
		return nil
	}
	o, err := check.HeadersOf(orig, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if ex.Status == http.StatusOK {
		if rl, err := ex.RateLimit(); err == nil && rl.Remaining == o.Remaining-1 {
			return nil // processed as a new request
		}
	}
	return scenario.Violate(clause.Of(clause.AC6, clause.FR6), "the same Idempotency-Key with a different body",
		fmt.Sprintf("422 or 409, or processing as a new request (200 with Remaining %d); never the cached response", o.Remaining-1),
		check.Describe(ex), orig, ex)
}

func (s *World) no5xx() error {
	for _, ex := range s.Batch.Exchanges {
		if ex.Status >= 500 {
			return scenario.Violate(clause.Of(clause.AC6, clause.FR6), "concurrent identical requests", "no 5xx", check.Describe(ex), ex)
		}
	}
	return nil
}
