package probe

import (
	"context"
	"fmt"
	"time"
)

// A sliding-window counter and a token bucket both give back only part of
// the limit when the refused key is tried again once the refusal's wait
// (or the first return, tried once a second) has passed. They part at the
// second look, as long again later: a token bucket gives back about as
// many again (R tokens a second), while the counter, whose previous window
// then holds only the few of the first return, gives back nearly the whole
// limit. A sliding log and a fixed window gave the whole limit back at the
// first look already.

// Again is the second look.
type Again struct{}

// Looked is what the second look counted.
type Looked struct {
	After   time.Duration // from the first return to the second look
	Allowed int
}

// Run waits as long again as the first return took and counts what is
// allowed on the refused key.
func (Again) Run(ctx context.Context, s *Session) error {
	f := &s.F
	r := f.Refilled
	if r == nil || r.First == nil || !r.First.Allowed() || r.Partial || r.Allowed >= f.Allowed || f.Queue != nil {
		return nil
	}
	took := r.First.Ex.Received.Sub(f.First.Ex.Sent)
	if s.Left() < r.Allowed+f.refillNeed()+1 {
		f.unknown("a token bucket or a sliding-window counter: %d of %d came back %s after the first request; telling them needs a second look %s later and up to %d more requests (a larger PROBE_BUDGET)", r.Allowed, f.Allowed, took.Round(time.Second), took.Round(time.Second), f.Allowed+1)
		return nil
	}
	if took > s.maxWait {
		f.unknown("a token bucket or a sliding-window counter: %d of %d came back %s after the first request; telling them needs a second look %s later (MAX_WAIT of at least %s)", r.Allowed, f.Allowed, took.Round(time.Second), took.Round(time.Second), (took + time.Second).Round(time.Second))
		return nil
	}
	// Spend what came back (counted from Remaining, it is still there),
	// so that the second look starts from a refused key as the first did.
	var last *Seen
	for {
		sn, err := s.Send(ctx, "A", 0)
		if err != nil {
			return budgetNote(f, err, "a token bucket or a sliding-window counter")
		}
		if !sn.Allowed() {
			last = &sn
			break
		}
	}
	wait := max(last.Ex.Received.Add(took).Sub(s.Now()), 0)
	if err := s.Wait(ctx, wait); err != nil {
		return err
	}
	second := &Refilled{Waited: wait}
	if err := countBack(ctx, s, second); err != nil {
		return err
	}
	if second.Partial {
		return nil
	}
	f.Again = &Looked{After: took, Allowed: second.Allowed}
	return nil
}

// counter says the second look fits a sliding-window counter: clearly more
// came back than at the first look.
func (f *Findings) counter() bool {
	return f.Again != nil && f.Refilled != nil && f.Again.Allowed >= f.Refilled.Allowed+2
}

func (f *Findings) counterWhy() string {
	return fmt.Sprintf("%d of %d came back %s after the first request, then %d a second look as long again later: nothing before a window's end, then a weighted count of the window before (a token bucket gives about as many each time)",
		f.Refilled.Allowed, f.Allowed, f.Again.After.Round(100*time.Millisecond), f.Again.Allowed)
}
