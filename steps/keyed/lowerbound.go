package keyed

import (
	"fmt"
	"slices"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
)

// The other half of an "at most" clause: a bound holds on a run where
// nothing was allowed (a target answering 404 or 5xx to everything), so a
// scenario whose verdict is a bound also shows the key was allowed what
// any correct limiter allows it. Each lower bound below holds whatever the
// timing: it never rests on where a window began.

// FreshKeyAllowed is the lower bound of a fresh key's requests under a
// limit of n per window (fixed or sliding) or a bucket of n: however its
// requests fall into windows, each window lets min(its requests, n)
// through, so at least min(answered, n) of them are allowed; a request
// without an answer may have spent one unit unseen.
func (s *World) FreshKeyAllowed(n int) error {
	if len(s.Key.Runs) == 0 || len(s.Key.Runs[0]) == 0 {
		return nil // the scenario's own checks count its requests (MI-1)
	}
	key := s.KeyOf(s.Key.Runs[0][0])
	var run []*httpclient.Exchange
	lost := 0
	for _, ex := range s.Exchanges() {
		if s.KeyOf(ex) != key {
			continue
		}
		if ex.Err != nil {
			lost++
			continue
		}
		run = append(run, ex)
	}
	want := min(len(run), n) - lost
	return check.AllowedAtLeast(s.Refs(), run, want, fmt.Sprintf("a fresh key's first %d requests, whatever their windows", n))
}

// RefilledAllowed is TB-1's lower bound on the key's last run: from the
// last response before it to its first request, a correct bucket got
// R·gap tokens back (at most B), each of which the run may spend.
func (s *World) RefilledAllowed() error {
	if len(s.Key.Runs) < 2 {
		return nil
	}
	last := s.Key.Runs[len(s.Key.Runs)-1]
	if len(last) == 0 {
		return nil
	}
	var end int64
	for _, ex := range s.Exchanges() {
		if !slices.Contains(last, ex) && ex.Received.UnixNano() > end {
			end = ex.Received.UnixNano()
		}
	}
	gap := float64(last[0].Sent.UnixNano()-end) / 1e9
	want := min(s.Burst(), int(s.Rate()*gap))
	if want <= 0 {
		return nil
	}
	return check.AllowedAtLeast(s.Refs(), last, want, fmt.Sprintf("a run %.1f s after the key's last response, at R = %g/s", gap, s.Rate()))
}
