package swcounter

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// The counter's grid (WINDOW_ALIGN): the epoch's (default), the key's —
// anchored at the whole second of its first-ever request — or one grid
// for all keys, anchored at a boundary a Reset gave (dialects.md).

// align is the claimed alignment of the counter's windows.
func (s *state) align() profile.Align { return s.Env().Config.WindowAlign }

// gridStart is the start of the window of the key's grid holding t: on
// the epoch's grid until an anchor is known.
func (s *state) gridStart(t time.Time) time.Time {
	if s.anchor.IsZero() {
		return s.EpochStart(t)
	}
	w := int64(s.Window())
	d := t.Sub(s.anchor).Nanoseconds()
	k := d / w
	if d%w < 0 {
		k--
	}
	return s.anchor.Add(time.Duration(k * w))
}

// gridEvents are the scenario's events shifted so that the key's grid
// lies on the epoch's, as package bound places windows.
func (s *state) gridEvents() []bound.Event {
	shift := s.gridStart(time.Unix(0, 0)).UnixNano()
	es := s.Events()
	for i := range es {
		es[i].Send -= shift
		es[i].Recv -= shift
	}
	return es
}

// nextGridStart is the next start of a grid window after now: under
// key-grid a whole second half a window off the epoch's grid, at which the
// key's first request (sent there) anchors its grid; under grid a boundary
// of the grid learnt from another fresh key's first Reset.
func (s *state) nextGridStart() (time.Time, error) {
	now := s.Now()
	switch s.align() {
	case profile.AlignKeyGrid:
		if s.Key.Runs != nil {
			return s.gridStart(now).Add(s.Window()), nil
		}
		sec, w := now.Unix()+1, int64(s.Window()/time.Second)
		for w > 1 && sec%w != w/2 {
			sec++
		}
		s.anchor = time.Unix(sec, 0)
		s.Assume("the key's first request decided in the second that anchors its grid", func() string {
			if len(s.Key.Runs) == 0 || len(s.Key.Runs[0]) == 0 {
				return ""
			}
			first := s.Key.Runs[0][0]
			if !first.Sent.Truncate(time.Second).Equal(s.anchor) || !first.Received.Truncate(time.Second).Equal(s.anchor) {
				return fmt.Sprintf("the key's first request ran from %s to %s, not within the second %s", first.Sent.Format("15:04:05.000"), first.Received.Format("15:04:05.000"), s.anchor.Format("15:04:05"))
			}
			return ""
		})
		return s.anchor, nil
	case profile.AlignGrid:
		if err := s.knowGrid(); err != nil {
			return time.Time{}, err
		}
	}
	return s.gridStart(now).Add(s.Window()), nil
}

// knowGrid learns the grid under WINDOW_ALIGN=grid when it is not yet
// known; the epoch's is always known, a key's once its first request went.
func (s *state) knowGrid() error {
	if s.align() == profile.AlignGrid && s.anchor.IsZero() {
		return s.learnGrid()
	}
	return nil
}

// learnGrid anchors one grid at the Reset of another fresh key's first
// request (the end of its grid window).
func (s *state) learnGrid() error {
	key, client := s.Key.Value, s.Key.Client
	other, err := s.NewKey()
	if err != nil {
		return err
	}
	ex, err := s.Send(s.NewClient(), s.Keyed(other))
	if err != nil {
		return err
	}
	s.Key.Value, s.Key.Client = key, client
	rl, err := s.LimitHeaders(ex)
	if err != nil {
		return scenario.Skip("WINDOW_ALIGN=grid: the grid is learnt from a first Reset, which could not be read (%v)", err)
	}
	s.anchor = time.Unix(rl.Reset, 0)
	return nil
}
