package swcounter

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// retries is how many refused requests SWC-3-01 sends after spending N: a
// counter that counts them weighs them on the next window.
const retries = 30

// registerOverBlock registers SWC-3's steps: a key that spent N and kept
// retrying, then requests late in the next window.
func (s *state) registerOverBlock(sc scenario.Stepper) {
	sc.Step(`^N requests of the key are allowed at once and, unless refused requests count, 30 more sent at once while it is refused$`, s.spendAndRetry)
	sc.Step(`^1\.5 seconds before the next window ends N\+1 requests of the key are sent at once$`, s.lateBatch)
	sc.Step(`^no request of the key was refused while the weighted count was at most N − 2$`, s.noOverBlocking)
}

// spendAndRetry releases N requests of the fresh key together (each
// allowed) and then the retries together — none when counts-refused is
// claimed: those retries would weigh on the next window by design, and
// SWC-3 is then checked on N alone (noOverBlocking counts refusals too).
// Released together, all of them fall in the window they start in even
// on a slow target, where one after another they ran into the next
// window and were allowed there.
func (s *state) spendAndRetry() error {
	if err := s.NAllowedAtOnce(); err != nil {
		return err
	}
	if s.Env().Config.Claims(profile.CountsRefused) {
		return nil
	}
	_, err := s.SendAtOnce(retries)
	return err
}

// lateBatch waits until 1.5 s before the end of the window after the one
// the key spent N in, and sends N + 1 requests of the key at once. A
// refusal is judged only when it came back 1 s (the tolerance) before that
// end; sent together, the batch comes back within one request's time even
// on a slow target or a starved machine, where N + 1 sent one after
// another did not fit in the 0.5 s left. Later in the window a wrong
// weighting (swc-weights-wrong) would no longer show within the tolerance.
func (s *state) lateBatch() error {
	spent, _ := scenario.Span(s.Key.Runs[0])
	at := s.gridStart(spent).Add(2*s.Window() - bound.DefaultTolerance - bound.DefaultTolerance/2)
	if err := s.FitsMaxWait(at.Sub(s.Now()), "waiting for the end of the next window"); err != nil {
		return err
	}
	if err := s.WaitUntil(at); err != nil {
		return err
	}
	return s.ConcurrentN(s.Limit() + 1)
}

// noOverBlocking is SWC-3 on the key's last batch: a refusal is a
// violation when even the largest estimate any placement of the decisions
// gives (most weight on the previous window, every other allowed request
// counted that may come before it) is at most N − 2. Judged only for
// refusals certainly inside one grid window. The note is the largest count
// seen allowed in a span of W.
func (s *state) noOverBlocking() error {
	s.noteLargest()
	s.assumeSpentInOneWindow()
	run := s.Key.Runs[len(s.Key.Runs)-1]
	for _, j := range run {
		if !j.Refused() {
			continue
		}
		if err := s.overBlocked(j, run); err != nil {
			return err
		}
	}
	return nil
}

// overBlocked judges one refusal j of run (see noOverBlocking).
func (s *state) overBlocked(j *httpclient.Exchange, run []*httpclient.Exchange) error {
	tol := bound.DefaultTolerance
	start := s.gridStart(j.Sent.Add(-tol))
	if !start.Equal(s.gridStart(j.Received.Add(tol))) {
		s.Assume("the refusal certainly inside one grid window", func() string {
			return fmt.Sprintf("the refusal sent at %s lies within 1 s of a boundary of the grid of %s", j.Sent.Format("15:04:05.000"), s.Window())
		})
		return nil
	}
	a, b := j.Sent.Add(-tol), j.Received.Add(tol)
	prev, c := 0, 0
	refusedCount := s.Env().Config.Claims(profile.CountsRefused)
	for _, ex := range s.Exchanges() {
		if ex == j || (ex.Status/100 != 2 && !(refusedCount && ex.Refused())) {
			continue
		}
		from, to := ex.Sent.Add(-tol), ex.Received.Add(tol)
		if to.After(start.Add(-s.Window())) && from.Before(start) {
			prev++
		}
		if to.After(start) && from.Before(b) {
			c++
		}
	}
	most := float64(prev)*(1-a.Sub(start).Seconds()/s.Window().Seconds()) + float64(c)
	if most > float64(s.Limit()-2) {
		return nil
	}
	return scenario.Violate(s.Refs(), "a request that finds e ≤ N − 2 for every placement is allowed",
		fmt.Sprintf("allowed: at most %.2f = %d·(1 − %s/W) + %d wherever the decisions lie (±1 s)", most, prev, a.Sub(start).Round(time.Millisecond), c),
		fmt.Sprintf("HTTP %d", j.Status), run...)
}

// assumeSpentInOneWindow: the scenario rests on the key's N (and its
// retries) lying in one grid window, the one before the late batch's. A
// batch that ran into the next window on a starved machine counts there
// for every placement the checker tries, and the late refusals are then
// right: no verdict either way.
func (s *state) assumeSpentInOneWindow() {
	if len(s.Key.Runs) < 2 {
		return
	}
	var spent []*httpclient.Exchange
	for _, run := range s.Key.Runs[:len(s.Key.Runs)-1] {
		spent = append(spent, run...)
	}
	first, last := scenario.Span(spent)
	s.Assume("the key's N and its retries within one grid window", func() string {
		if end := s.gridStart(first).Add(s.Window()); !last.Add(bound.DefaultTolerance).Before(end) {
			return fmt.Sprintf("they ran from %s to %s, within 1 s of the window's end %s", first.Format("15:04:05.000"), last.Format("15:04:05.000"), end.Format("15:04:05.000"))
		}
		return ""
	})
}
