package keyed

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// clockLag is how far behind the real one a server's clock may be: a
// clock of whole seconds stored by a once-a-second ticker (Fiber's
// utils.Timestamp) ends a window up to 1 s after it ended.
const clockLag = time.Second

// resetSlack is how far past the window that ended a refusal's window
// end may lie and still be that window's: an epoch window's Reset is its
// boundary; a Retry-After counted from the refusal's receipt is a little
// later.
const resetSlack = 500 * time.Millisecond

// assumeWindowEnded: fewer than N allowed in a fixed-window batch sent
// after the key's window ended is a violation only when the server had
// ended that window too. An epoch window ends on a whole second, but a
// server whose clock lags (whole seconds a once-a-second ticker stores,
// as Fiber's utils.Timestamp) ends it up to 1 s later, and may refuse the
// batch's first requests in the window that ended. Its answers say so: a
// refusal whose window end (its Reset, or Retry-After from its receipt)
// is the end of the window that ended, within resetSlack, was decided in
// that window and the verdict rests on a broken assumption. Where no
// refusal says its window, an epoch batch must have gone out at least
// clockLag after the boundary. (A first-request window the server opened
// ends no later than W after the opening request came back, the end the
// batch waited for: nothing to assume there.)
func (s *World) assumeWindowEnded(exs []*httpclient.Exchange) {
	ended := s.Key.Ended
	if !s.WholeWindows() || !s.Epoch() || len(exs) == 0 || ended.IsZero() {
		return
	}
	first, _ := scenario.Span(exs)
	s.Assume("the window ended at the server before the batch", func() string {
		told := false
		for _, ex := range exs {
			end, ok := windowEndOf(ex)
			if !ok || ex.Status/100 == 2 {
				continue
			}
			told = true
			if !end.After(ended.Add(resetSlack)) {
				return fmt.Sprintf("a refusal sent at %s says its window ends at %s, the end of the window that ended (%s): the server had not ended it yet",
					ex.Sent.Format("15:04:05.000"), end.Format("15:04:05.000"), ended.Format("15:04:05.000"))
			}
		}
		if !told && first.Before(ended.Add(clockLag)) {
			return fmt.Sprintf("no refusal says its window, and the batch went out %s after the window's end, within the %s a server's clock may lag",
				first.Sub(ended).Round(time.Millisecond), clockLag)
		}
		return ""
	})
}

// windowEndOf is when ex says its window ends: its Reset, else its
// Retry-After counted from its receipt.
func windowEndOf(ex *httpclient.Exchange) (time.Time, bool) {
	o := ex.Observe()
	switch {
	case o.Err == nil && o.Has(dialect.FieldReset):
		return o.Reset, true
	case o.RetryAfterErr == nil && o.Has(dialect.FieldRetryAfter):
		return ex.Received.Add(o.RetryAfter), true
	}
	return time.Time{}, false
}
