package slidinglog

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// phaseKeys is how many keys SL-1-02 bursts with, their bursts W/phaseKeys
// apart: whatever the offset of a grid of period W, one burst begins at
// most W/3 before a boundary of it.
const phaseKeys = 3

// registerSLPhases registers SL-1-02's steps: bursts at several phases of
// any window grid (a sliding-window counter, a fixed window), each probed
// until W − 1 s after it began; the bound itself is SL-1's step.
func (s *state) registerSLPhases(sc scenario.Stepper) {
	sc.Step(`^each of 3 fresh keys sends a request, then W plus 1 second later N requests at its own third of W and one every tick until W minus 1 second after them$`, s.burstsAtPhases)
}

// phaseRun is what one key of SL-1-02 sent: its first request, its burst
// of N and the probes after it.
type phaseRun struct {
	first  *httpclient.Exchange
	burst  []*httpclient.Exchange
	probes []*httpclient.Exchange
	err    error
}

// burstsAtPhases: each key sends one request (a grid anchored at a key's
// first request has its boundaries W after it); W + 1 s after the last of
// those came back (SL-4: a sliding log allows all N then), key j sends N
// requests one after another at j·W/3, then one every tick (W/30, at least
// 100 ms) while it can still come back within W − 1 s of the burst's
// first send. A grid's boundary just after a burst lets the next request
// through; SL-1's step sees N+1 within W − 1 s. The assumption, checked
// afterwards from the harness's own times: the spans from each burst's
// first response to its last probe that fits cover every phase of W.
func (s *state) burstsAtPhases() error {
	w := s.Window()
	span := w - bound.DefaultTolerance
	if span <= 0 {
		return scenario.Skip("SL-1 can only be decided within W − 1 s, and RL_WINDOW=%s leaves none", w)
	}
	third, tick := w/phaseKeys, min(max(w/30, 100*time.Millisecond), time.Second)
	if err := s.FitsMaxWait(2*w+time.Second+span, "bursts at three phases of W"); err != nil {
		return err
	}
	runs := make([]phaseRun, phaseKeys)
	keys := make([]string, phaseKeys)
	clients := make([]scenario.Client, phaseKeys)
	var latest time.Time
	for j := range runs {
		v, err := s.NewKey()
		if err != nil {
			return err
		}
		keys[j], clients[j] = v, s.NewClient()
		ex, err := s.Send(clients[j], s.Keyed(v))
		if err != nil {
			return err
		}
		runs[j].first = ex
		if ex.Received.After(latest) {
			latest = ex.Received
		}
	}
	start := latest.Add(w + time.Second)
	var wg sync.WaitGroup
	for j := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[j] = s.burstAndProbe(runs[j], clients[j], keys[j], start.Add(time.Duration(j)*third), span, tick)
		}()
	}
	wg.Wait()
	s.Assume("bursts probed at every phase of W", func() string { return s.phasesCovered(runs, span) })
	for _, r := range runs {
		if r.err != nil {
			return r.err
		}
	}
	for _, r := range runs {
		for i, ex := range r.burst {
			if ex.Status/100 != 2 {
				v := scenario.Violate(clause.Of(clause.SL4), "a burst of N sent W + 1 s after the key's only request came back",
					"2xx for each", fmt.Sprintf("request %d of %d got HTTP %d", i+1, len(r.burst), ex.Status), r.first, ex)
				v.Precondition = true
				return v
			}
		}
	}
	return nil
}

// burstAndProbe sends key's burst of N at at, then a probe every tick
// while the next one is sent before the burst's first send + span − tick.
func (s *state) burstAndProbe(r phaseRun, c scenario.Client, key string, at time.Time, span, tick time.Duration) phaseRun {
	if r.err = s.WaitUntil(at); r.err != nil {
		return r
	}
	for range s.Limit() {
		ex, err := s.Send(c, s.Keyed(key))
		if r.burst = append(r.burst, ex); err != nil {
			r.err = err
			return r
		}
	}
	last := r.burst[0].Sent.Add(span - tick)
	for next := r.burst[len(r.burst)-1].Received; next.Before(last); next = next.Add(tick) {
		if r.err = s.WaitUntil(next); r.err != nil {
			return r
		}
		ex, err := s.Send(c, s.Keyed(key))
		if r.probes = append(r.probes, ex); err != nil {
			r.err = err
			return r
		}
		if ex.Status/100 != 2 && ex.Status != http.StatusTooManyRequests {
			r.err = scenario.Violate(s.Refs(), "a request of a key", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
			return r
		}
	}
	return r
}

// phasesCovered is the assumption of burstsAtPhases: a grid boundary after
// a burst's first response (its first request decided before it) and
// before the send of its last probe that came back within span of the
// burst's first send is met by a request the checker sees with the burst.
// Those stretches, modulo W, must cover every phase. A violation found
// rests on no timing.
func (s *state) phasesCovered(runs []phaseRun, span time.Duration) string {
	var v *scenario.Violation
	if errors.As(s.Err(), &v) && !v.Precondition {
		return ""
	}
	spans := make([]bound.Span, 0, len(runs))
	for _, r := range runs {
		if len(r.burst) == 0 {
			continue
		}
		sp := bound.Span{From: r.burst[0].Received.UnixNano()}
		limit := r.burst[0].Sent.Add(span)
		for _, ex := range r.probes {
			if !ex.Received.After(limit) {
				sp.To = ex.Sent.UnixNano()
			}
		}
		spans = append(spans, sp)
	}
	if gap := bound.Uncovered(spans, s.Window()); gap > 0 {
		return fmt.Sprintf("the bursts and their probes left %s of every W unprobed (a starved machine stretched them)", gap.Round(time.Millisecond))
	}
	return ""
}
