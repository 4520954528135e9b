package fixedwindow

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// oneGrid is what FW-5-02 learns of one grid for every key
// (WINDOW_ALIGN=grid): the boundary the key's first Reset gave and the
// request sent a window later.
type oneGrid struct {
	boundary time.Time
	later    *httpclient.Exchange
}

// registerOnGrid registers the steps of the scenarios that read the grids
// (tagged @align:key-grid or @align:grid): the key's grid's next window
// after an idle gap, and one grid's Reset a window after the first.
func (s *state) registerOnGrid(sc scenario.Stepper) {
	sc.Step(`^N requests of the key are allowed in the grid's next window$`, s.allowedInGridWindow)
	sc.Step(`^the key's first request gives the grid's next boundary as its Reset$`, s.learnGrid)
	sc.Step(`^a request of the key is sent half a second after the boundary W after that one$`, s.sendAfterNextBoundary)
	sc.Step(`^its Reset is the boundary W after that one, on the same grid$`, s.resetOnGrid)
}

// allowedInGridWindow is FW-3 on a grid: N requests of the key, released
// at once in a window of the grid after the one the key spent, are each
// allowed (gridPasses records what that rests on).
func (s *state) allowedInGridWindow() error {
	run, err := s.SendAtOnce(s.Limit())
	if err != nil {
		return err
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of %d in the grid's next window, the previous one spent", i+1, len(run)),
				"2xx (the next window gives N fresh allowances)", fmt.Sprintf("HTTP %d", ex.Status), run[:i+1]...)
		}
	}
	return nil
}

// learnGrid sends the key's first request: its Reset is a boundary of the
// grid (dialects.md: the grid is learnt from the first Reset).
func (s *state) learnGrid() error {
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	if ex.Status/100 != 2 {
		return s.setupFailed("the first request of a fresh key", ex)
	}
	rl, err := s.LimitHeaders(ex)
	if err != nil {
		return err
	}
	s.onGrid = oneGrid{boundary: time.Unix(rl.Reset, 0)}
	return nil
}

// sendAfterNextBoundary waits until half a second after the boundary W
// after the learnt one and sends a request of the key.
func (s *state) sendAfterNextBoundary() error {
	at := s.onGrid.boundary.Add(s.Window() + 500*time.Millisecond)
	if err := s.FitsMaxWait(at.Sub(s.Now()), "waiting for the grid's boundary after the next"); err != nil {
		return err
	}
	if err := s.WaitUntil(at); err != nil {
		return err
	}
	ex, err := s.SendKeyed()
	s.onGrid.later = ex
	return err
}

// resetOnGrid is FW-5's Reset on one grid: the later request's Reset is
// the learnt boundary plus 2W (±1 s), the end of the window it was sent
// in. It rests on the request having been answered within that window,
// more than a second before its end.
func (s *state) resetOnGrid() error {
	ex := s.onGrid.later
	rl, err := s.LimitHeaders(ex)
	if err != nil {
		return err
	}
	end := s.onGrid.boundary.Add(2 * s.Window())
	s.Assume("the request answered within the grid's window, a second before its end", func() string {
		if !ex.Received.Before(end.Add(-time.Second)) {
			return fmt.Sprintf("the request came back at %s, within 1 s of the window's end %s", ex.Received.Format("15:04:05.000"), end.Format("15:04:05"))
		}
		return ""
	})
	if d := rl.Reset - end.Unix(); d < -1 || d > 1 {
		return scenario.Violate(s.Refs(), "Reset a window after the grid's boundary the first Reset gave",
			fmt.Sprintf("%d (±1: the boundary %d plus 2W)", end.Unix(), s.onGrid.boundary.Unix()), fmt.Sprintf("%d", rl.Reset), ex)
	}
	return nil
}
