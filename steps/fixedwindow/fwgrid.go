package fixedwindow

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// gridState is what FW-2-02 knows of the key's first-ever request and of
// the multiple of W after it that its traffic straddles.
type gridState struct {
	first *httpclient.Exchange // the key's first-ever request
	k     int                  // the multiple of W after it
	burst int                  // index of the first exchange after the idle gap
}

// registerFixedWindowGrid registers the steps that tell a window opened by
// the first request from a grid of W anchored at the key's first-ever
// request (dialects.md key-grid): traffic after an idle gap that is not a
// multiple of W, on both sides of a multiple of W after the first request.
func (s *state) registerFixedWindowGrid(sc scenario.Stepper) {
	sc.Step(`^the key idles after its first request until (\d+) ms before a later multiple of W$`, s.idleToGrid)
	sc.Step(`^that multiple of W after the key's first request passes$`, s.gridPasses)
}

// gridEarliest and gridLatest bound where a grid of W anchored at the key's
// first request puts its k-th boundary: from W·k after the whole second in
// which the first request was sent (a server keeping whole seconds) to W·k
// after its response came back.
func (s *state) gridEarliest() time.Time {
	return s.grid.first.Sent.Truncate(time.Second).Add(time.Duration(s.grid.k) * s.Window())
}

func (s *state) gridLatest() time.Time {
	return s.grid.first.Received.Add(time.Duration(s.grid.k) * s.Window())
}

// idleToGrid sends the key's first request just after a whole second (so
// that a grid anchored at it, whole seconds or not, has its boundaries
// within the request's round trip), then waits until ms before the
// earliest k-th boundary of that grid, k the least multiple that leaves
// the window the first request opened more than a second behind: an idle
// gap of k·W − ms, not a multiple of W.
func (s *state) idleToGrid(ms int) error {
	lead := time.Duration(ms) * time.Millisecond
	if s.Key.Runs != nil {
		return scenario.Precondition(fmt.Errorf("the idle gap starts at the key's first-ever request: the key was used already"))
	}
	k := 2
	for time.Duration(k-1)*s.Window()-lead < 1100*time.Millisecond {
		k++
	}
	if gap := time.Duration(k)*s.Window() - lead; !s.Ageable() && gap > s.Env().MaxWait {
		return scenario.Skip("the idle gap after the key's first request (%d·RL_WINDOW − %s = %s) is longer than MAX_WAIT=%s: raise MAX_WAIT or configure a shorter RL_WINDOW",
			k, lead, gap.Round(time.Millisecond), s.Env().MaxWait)
	}
	if !s.Ageable() { // an aged key's time moves with its window, not with the wall clock
		if err := s.WaitUntil(s.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)); err != nil {
			return err
		}
	}
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	s.Key.Runs = append(s.Key.Runs, []*httpclient.Exchange{ex})
	if ex.Status/100 != 2 {
		return s.setupFailed("the first request of a fresh key", ex)
	}
	s.grid = gridState{first: ex, k: k, burst: s.Recorded()}
	s.Key.Opened, s.Key.Spent = nil, 0
	return s.WaitUntil(s.gridEarliest().Add(-lead))
}

// gridPasses waits until 100 ms after the latest the k-th boundary can be,
// and records what the verdict rests on: the requests since the idle gap
// were answered before the earliest boundary, the ones to come are sent
// after the latest, and all of them fall within W less the bound's
// tolerance, so that a grid's two windows would be seen in one span.
func (s *state) gridPasses() error {
	if s.grid.first == nil {
		return scenario.Precondition(fmt.Errorf("no idle gap: the scenario must let the key idle after its first request first"))
	}
	before := s.Recorded()
	early, late := s.gridEarliest(), s.gridLatest()
	if err := s.WaitUntil(late.Add(100 * time.Millisecond)); err != nil {
		return err
	}
	s.Key.Opened, s.Key.Spent = nil, 0
	s.Assume("traffic on both sides of a multiple of W after the key's first request, within one span of W", func() string {
		all := s.Exchanges()
		if before <= s.grid.burst || len(all) <= before {
			return "no requests on one side of the boundary"
		}
		for _, ex := range all[s.grid.burst:before] {
			if !ex.Received.Before(early) {
				return fmt.Sprintf("a request before the boundary came back %s after it may have passed", ex.Received.Sub(early).Round(time.Millisecond))
			}
		}
		for _, ex := range all[before:] {
			if ex.Sent.Before(late) {
				return fmt.Sprintf("a request after the boundary was sent %s before it had certainly passed", late.Sub(ex.Sent).Round(time.Millisecond))
			}
		}
		span := all[len(all)-1].Received.Sub(all[s.grid.burst].Sent)
		if most := s.Window() - bound.DefaultTolerance; span >= most {
			return fmt.Sprintf("the requests took %s, not less than %s (W less the bound's tolerance)", span.Round(time.Millisecond), most)
		}
		return ""
	})
	return nil
}
