package leakybucket

import (
	"fmt"
	"sync"
	"time"

	"github.com/rlspec/rlspec/httpclient"
)

// prompt is how soon a control must have come back for a slow answer
// beside it to count against the limiter.
const prompt = 250 * time.Millisecond

// A control is the first request of a fresh idle key, on its own client,
// sent at the same instant as a batch whose answers must come "at once"
// (LB-2's refusals, LB-4's idle key). Every design answers it at once, so
// how long it took is how long the machine — rlspec's, the network, the
// limiter's host — took to answer anything at that instant. A slow answer
// is a violation only where a control in flight beside it came back
// promptly: on a starved machine the verdict rests on a broken assumption
// and the scenario is run again, never failed.

// dialControl readies a control: a fresh key on its own client, dialled.
// Its result sends the control at release (zero: at once) beside the
// checked batch; the wait it returns records the control, for
// assumePrompt, once it came back.
func (s *state) dialControl() (func(release time.Time) (wait func() error), error) {
	key, err := s.NewKey()
	if err != nil {
		return nil, err
	}
	c := s.NewClient()
	s.Predial(c, 1)
	return func(release time.Time) func() error {
		var wg sync.WaitGroup
		var ctl []*httpclient.Exchange
		var ctlErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctl, ctlErr = s.FireDialed(c, []httpclient.Request{s.Keyed(key)}, release)
		}()
		return func() error {
			wg.Wait()
			if len(ctl) == 1 {
				s.control = ctl[0]
			}
			return ctlErr
		}
	}, nil
}

// assumePrompt records that a violation on ex's slowness rests on the
// machine answering promptly while ex was in flight: the control was
// sent while ex was awaited and came back within prompt.
func (s *state) assumePrompt(ex *httpclient.Exchange) {
	s.Assume("an idle key's request at the same instant answered promptly", func() string {
		ctl := s.control
		if ctl == nil {
			return "no control request was sent beside the slow answer"
		}
		if ctl.Sent.Before(ex.Sent.Add(-prompt)) || ctl.Sent.After(ex.Received) {
			return fmt.Sprintf("the control went out at %s, not while the slow answer (sent %s) was awaited",
				ctl.Sent.Format("15:04:05.000"), ex.Sent.Format("15:04:05.000"))
		}
		if took := ctl.Received.Sub(ctl.Sent); took > prompt {
			return fmt.Sprintf("the first request of a fresh key, sent at the same instant, took %s (more than %s): the machine was slow to answer anything",
				took.Round(time.Millisecond), prompt)
		}
		return ""
	})
}
