package scenario

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/httpclient"
)

// A scenario against a target whose windows are aged rather than waited
// out (Env.Ager: spec/004's function, whose windows are whole minutes)
// keeps its own clock: the wall clock plus offset, the time the key's
// stored window was moved back. Aging the key's row by d is, for that
// key, the same as d passing, so every wait of a keyed scenario becomes an
// age, and every exchange's timestamps are moved on by the offset when it
// is recorded: the checks (package bound) then see the history the key
// lived through, windows and all.

// Now is the scenario's clock: the wall clock moved on by what was aged.
func (s *State) Now() time.Time { return s.env.Clock().Add(s.offset) }

// AgeWith names the key whose stored window a wait ages (Env.Ager): key
// is asked at each wait, "" while there is none.
func (s *State) AgeWith(key func() string) { s.agedKey = key }

func (s *State) keyValue() string {
	if s.agedKey == nil {
		return ""
	}
	return s.agedKey()
}

// Ageable reports whether waits of this scenario are ages of its key.
func (s *State) Ageable() bool { return s.env.Ager != nil && s.keyValue() != "" }

// age brings the key's time to t by moving its stored window back.
func (s *State) age(t time.Time) error {
	d := t.Sub(s.Now())
	if d <= 0 {
		return nil
	}
	if err := s.env.Ager.Age(s.ctx, s.keyValue(), d); err != nil {
		return Precondition(fmt.Errorf("age the key's window by %s: %w", d, err))
	}
	s.offset += d
	return nil
}

// shift moves freshly recorded exchanges onto the scenario's clock.
func (s *State) shift(exs []*httpclient.Exchange) {
	if s.offset == 0 {
		return
	}
	for _, ex := range exs {
		if ex == nil {
			continue
		}
		for _, t := range []*time.Time{&ex.Intended, &ex.Sent, &ex.Received} {
			if !t.IsZero() {
				*t = t.Add(s.offset)
			}
		}
	}
}
