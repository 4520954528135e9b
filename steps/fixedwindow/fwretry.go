package fixedwindow

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerFixedWindowRetry registers FW-3's retrying client: a key that
// spent its window keeps retrying while refused, up to just before the
// window ends (a refusal never moves the window).
func (s *state) registerFixedWindowRetry(sc scenario.Stepper) {
	sc.Step(`^the key retries every (\d+) ms while refused, in the last (\d+) s before its window ends$`, s.retryWhileRefused)
}

// retryStop is how long before the window's earliest end the retries stop,
// so that each is decided inside the spent window.
const retryStop = 300 * time.Millisecond

// retryWhileRefused sends a request of the key every ms milliseconds from
// secs seconds before the window's earliest end until retryStop before it.
// Each must be refused: one allowed while answered inside the spent window
// (more than the bound's tolerance before its earliest end) is a violation; the verdicts after it rest on every retry having
// been decided inside the window. With penalties claimed and no
// penalty-free instance, a refusal legitimately starts a penalty, and the
// scenario is skipped (profiles.md).
func (s *state) retryWhileRefused(ms, secs int) error {
	cfg := s.Env().Config
	if cfg.Claims(profile.Penalties) && cfg.PenaltiesURL == "" {
		return scenario.Skip("penalties are claimed and no penalty-free instance is given (TARGET_URL_PENALTIES): a refusal may start a penalty, so a retrying client's next window cannot be checked")
	}
	end := s.KeyWindowEarliestEnd()
	if end.IsZero() {
		return scenario.Precondition(fmt.Errorf("no window: the key must spend its window before it retries"))
	}
	every, stop := time.Duration(ms)*time.Millisecond, end.Add(-retryStop)
	next := end.Add(-time.Duration(secs) * time.Second)
	if now := s.Now(); now.After(next) {
		next = now
	}
	var retries []*httpclient.Exchange
	for ; next.Before(stop); next = next.Add(every) {
		if err := s.WaitUntil(next); err != nil {
			return err
		}
		if !s.Now().Before(stop) {
			break
		}
		ex, err := s.SendKeyed()
		if err != nil {
			return err
		}
		retries = append(retries, ex)
		if ex.Refused() { // LIMITED_STATUS, 429 by default
			continue
		}
		if ex.Status/100 != 2 || ex.Received.Before(end.Add(-bound.DefaultTolerance)) {
			return scenario.Violate(s.Refs(), "a retry while the window was spent", fmt.Sprintf("HTTP %d", ex.Answer.Status()), fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		break // allowed near the window's end (the server's clock may be ahead): the assumption below breaks
	}
	if len(retries) == 0 {
		// The spends took the time the retries needed (a slow machine): a
		// broken time assumption, so the scenario runs again, then skips.
		why := fmt.Sprintf("no retry could be sent before %s, %s before the window's earliest end", stop.Format(time.RFC3339Nano), retryStop)
		s.Assume("time left in the window to retry in", func() string { return why })
		return scenario.Skip("time left in the window to retry in: %s", why)
	}
	s.Key.Runs = append(s.Key.Runs, retries)
	s.Assume("the retries decided inside the spent window", func() string {
		for _, ex := range retries {
			if ex.Status/100 == 2 {
				return fmt.Sprintf("a retry was allowed %s before the window's earliest end, within the server clock's tolerance", end.Sub(ex.Received).Round(time.Millisecond))
			}
			if !ex.Received.Before(end) {
				return fmt.Sprintf("a retry came back %s after the window's earliest end", ex.Received.Sub(end).Round(time.Millisecond))
			}
		}
		return ""
	})
	return nil
}
