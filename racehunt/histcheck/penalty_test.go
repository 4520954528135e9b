package histcheck

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// penaltyBody is the reference's answer body for d: a 429 under a
// penalty carries penalty_active and penalty_until (fakeserver).
func penaltyBody(d model.Decision) []byte {
	if d.PenaltyUntil == 0 {
		return []byte(`{}`)
	}
	return fmt.Appendf(nil, `{"error":{"code":"RATE_LIMITED"},"penalty_active":true,"penalty_until":%d}`, d.PenaltyUntil)
}

// penaltyHistory is a key of limit 1 (sliding log, 3 s) under penalties
// of testTiers: the second violation starts 1 s, the third 2 s.
func penaltyHistory() (*keyHistory, model.Penalties) {
	p := model.Penalties{Inner: model.SlidingLog{Limit: 1, Window: 3 * time.Second}, Tiers: testTiers}
	return newKeyHistory(profile.SlidingLog, p), p
}

// answer adds a request decided at at (seconds after t0, in flight
// at..at+0.1) answered as d says, or with d's penalty marker taken off.
func (k *keyHistory) answer(at float64, d model.Decision, unmarked bool) {
	status := http.StatusOK
	if !d.Allowed {
		status = http.StatusTooManyRequests
	}
	k.add(at, at+0.1, status, d.Remaining, d.Reset-t0/int64(time.Second))
	if !unmarked && status == http.StatusTooManyRequests {
		k.h.Ops[len(k.h.Ops)-1].Ex.RespBody = penaltyBody(d)
	}
}

// TestStepOracleLostViolation: two violations racing on a key must count
// twice: one of the two 429s starts the second violation's penalty. Both
// answered as first violations (a violation count read and written back
// non-atomically) is not linearizable; the correct answers are, in either
// order.
func TestStepOracleLostViolation(t *testing.T) {
	steps := func() (*keyHistory, []model.Decision) {
		k, p := penaltyHistory()
		var st model.State
		var ds []model.Decision
		for _, at := range []float64{0, 1, 1} {
			var d model.Decision
			st, d = p.Step(st, spendOne, time.Unix(0, sec(at)))
			ds = append(ds, d)
		}
		if ds[1].PenaltyUntil != 0 || ds[2].PenaltyUntil == 0 {
			t.Fatalf("the model: violations %+v and %+v, want the second under a penalty", ds[1], ds[2])
		}
		return k, ds
	}
	k, ds := steps()
	k.answer(0, ds[0], false)
	k.answer(1, ds[1], false)
	k.answer(1, ds[2], false)
	wantClean(t, k.h)

	k, ds = steps()
	k.answer(0, ds[0], false)
	k.answer(1, ds[2], false) // the penalty answered first
	k.answer(1, ds[1], false)
	wantClean(t, k.h)

	k, ds = steps()
	k.answer(0, ds[0], false)
	k.answer(1, ds[1], false)
	k.answer(1, ds[1], false) // the second violation lost
	wantIllegal(t, k.h)

	k, ds = steps()
	k.answer(0, ds[0], false)
	k.answer(1, ds[1], false)
	k.answer(1, ds[2], true) // its headers, but no penalty marker
	wantIllegal(t, k.h)
}

// TestPenaltyMatches: the marker must say what the model says, its end
// within the slack.
func TestPenaltyMatches(t *testing.T) {
	for _, c := range []struct {
		model, marker int64
		want          bool
	}{
		{0, 0, true}, {10, 10, true}, {10, 11, true}, {10, 9, true},
		{10, 12, false}, {10, 0, false}, {0, 10, false},
	} {
		if got := penaltyMatches(model.Decision{PenaltyUntil: c.model}, c.marker, 1); got != c.want {
			t.Errorf("model %d, marker %d: %v, want %v", c.model, c.marker, got, c.want)
		}
	}
}

// TestPlacementsPenaltyEnd: a penalty ending inside a second is a cut.
func TestPlacementsPenaltyEnd(t *testing.T) {
	_, p := penaltyHistory()
	o := StepOracle{Model: p}
	st := model.State{Found: true, Penalty: model.Penalty{Count: 2, Last: sec(0.3) / 1e6, Until: sec(1.3) / 1e6}}
	got := o.Placements(st, sec(1.1), sec(1.5))
	for _, want := range []int64{sec(1.3) - 1, sec(1.3)} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("placements %v miss %d (the penalty's end)", got, want)
		}
	}
	if got := penaltyEnd(p, st, sec(1.3), sec(1.5)); got != nil {
		t.Errorf("an end at the interval's start: %v, want none", got)
	}
	if got := penaltyEnd(p.Inner, st, sec(1.1), sec(1.5)); got != nil {
		t.Errorf("a model without penalties: %v, want none", got)
	}
}
