package steps

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// The other half of an "at most" clause: a bound holds on a run where
// nothing was allowed (a target answering 404 or 5xx to everything), so a
// scenario whose verdict is a bound also shows the key was allowed what
// any correct limiter allows it. Each lower bound below holds whatever the
// timing: it never rests on where a window began.

// allowedAtLeast fails unless at least want of run were allowed (2xx).
func (s *world) allowedAtLeast(run []*service.Exchange, want int, what string) error {
	got := 0
	for _, ex := range run {
		if ex.Err == nil && ex.Status/100 == 2 {
			got++
		}
	}
	if got >= want {
		return nil
	}
	return scenario.Violate(s.Refs(), what, fmt.Sprintf("at least %d of the %d requests allowed", want, len(run)),
		fmt.Sprintf("%d allowed (%s)", got, statusCounts(run)), run...)
}

// freshKeyAllowed is the lower bound of a fresh key's requests under a
// limit of n per window (fixed or sliding) or a bucket of n: however its
// requests fall into windows, each window lets min(its requests, n)
// through, so at least min(answered, n) of them are allowed; a request
// without an answer may have spent one unit unseen.
func (s *world) freshKeyAllowed(n int) error {
	if len(s.key.runs) == 0 || len(s.key.runs[0]) == 0 {
		return nil // the scenario's own checks count its requests (MI-1)
	}
	key := s.keyOf(s.key.runs[0][0])
	var run []*service.Exchange
	lost := 0
	for _, ex := range s.Exchanges() {
		if s.keyOf(ex) != key {
			continue
		}
		if ex.Err != nil {
			lost++
			continue
		}
		run = append(run, ex)
	}
	want := min(len(run), n) - lost
	return s.allowedAtLeast(run, want, fmt.Sprintf("a fresh key's first %d requests, whatever their windows", n))
}

// refilledAllowed is TB-1's lower bound on the key's last run: from the
// last response before it to its first request, a correct bucket got
// R·gap tokens back (at most B), each of which the run may spend.
func (s *world) refilledAllowed() error {
	if len(s.key.runs) < 2 {
		return nil
	}
	last := s.key.runs[len(s.key.runs)-1]
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
	want := min(s.burst(), int(s.rate()*gap))
	if want <= 0 {
		return nil
	}
	return s.allowedAtLeast(last, want, fmt.Sprintf("a run %.1f s after the key's last response, at R = %g/s", gap, s.rate()))
}

// statusCounts is "3× 200, 2× 429" for run.
func statusCounts(run []*service.Exchange) string {
	n := map[int]int{}
	var order []int
	for _, ex := range run {
		if n[ex.Status] == 0 {
			order = append(order, ex.Status)
		}
		n[ex.Status]++
	}
	parts := make([]string, len(order))
	for i, st := range order {
		name := strconv.Itoa(st)
		if st == 0 {
			name = "no response"
		}
		parts[i] = fmt.Sprintf("%d× %s", n[st], name)
	}
	return strings.Join(parts, ", ")
}
