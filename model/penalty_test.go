package model_test

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// penaltyRun steps one key of m through requests at the given offsets from
// t0 (each spending 1) and returns the decisions.
func penaltyRun(m model.Model, t0 time.Time, at ...time.Duration) ([]model.Decision, model.State) {
	var st model.State
	out := make([]model.Decision, len(at))
	for i, off := range at {
		var d model.Decision
		st, d = m.Step(st, model.Request{Cost: 1}, t0.Add(off))
		out[i] = d
	}
	return out, st
}

func TestPenaltiesEscalateReleaseAndDoNotCountRefusals(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	m := model.Penalties{Inner: model.SlidingLog{Limit: 2, Window: 3 * time.Second},
		Tiers: []model.PenaltyTier{{Count: 2, Duration: 4 * time.Second}, {Count: 3, Duration: 8 * time.Second}}}
	ds, st := penaltyRun(m, t0, 0, 0, 0, // 2 allowed, violation 1: below the first tier, no penalty
		100*time.Millisecond,  // violation 2: 4 s penalty
		3500*time.Millisecond, // under the penalty although the log has room: refused, not counted
		4200*time.Millisecond, // released
	)
	if !ds[0].Allowed || !ds[1].Allowed || ds[2].Allowed || ds[2].PenaltyUntil != 0 {
		t.Fatalf("first violation: %+v", ds[:3])
	}
	if ds[3].Allowed || ds[3].PenaltyUntil != t0.Unix()+5 || ds[3].RetryAfter != 4 {
		t.Fatalf("second violation: %+v, want penalty until %d, Retry-After 4", ds[3], t0.Unix()+5)
	}
	if ds[4].Allowed || ds[4].PenaltyUntil != t0.Unix()+5 || ds[4].Write {
		t.Fatalf("under the penalty: %+v", ds[4])
	}
	if !ds[5].Allowed || st.Penalty.Count != 2 {
		t.Fatalf("after the penalty: %+v, record %+v", ds[5], st.Penalty)
	}
	// the third violation takes the second tier
	st2, d := m.Step(st, model.Request{Cost: 1}, t0.Add(4300*time.Millisecond))
	st2, d = m.Step(st2, model.Request{Cost: 1}, t0.Add(4400*time.Millisecond))
	if d.Allowed || d.PenaltyUntil != t0.Add(12400*time.Millisecond+999*time.Millisecond).Unix() || st2.Penalty.Count != 3 {
		t.Fatalf("third violation: %+v, record %+v", d, st2.Penalty)
	}
	// a day later the count starts again at 1: no penalty
	st3, d := m.Step(st2, model.Request{Cost: 1}, t0.Add(model.PenaltyMemory+20*time.Second))
	_, _ = st3, d
	st3, _ = m.Step(st3, model.Request{Cost: 1}, t0.Add(model.PenaltyMemory+20*time.Second))
	st3, d = m.Step(st3, model.Request{Cost: 1}, t0.Add(model.PenaltyMemory+20*time.Second))
	if d.Allowed || d.PenaltyUntil != 0 || st3.Penalty.Count != 1 {
		t.Fatalf("a violation a day later: %+v, record %+v", d, st3.Penalty)
	}
}

func TestParsePenaltyTiers(t *testing.T) {
	tiers, err := model.ParsePenaltyTiers("1:2s, 3:5, 5:1m")
	if err != nil || len(tiers) != 3 || tiers[1] != (model.PenaltyTier{Count: 3, Duration: 5 * time.Second}) || tiers[2].Duration != time.Minute {
		t.Fatalf("got %+v, %v", tiers, err)
	}
	if got := model.FormatPenaltyTiers(tiers); got != "1:2s,3:5s,5:60s" {
		t.Errorf("format: %q", got)
	}
	for _, bad := range []string{"", "1", "0:2s", "x:2s", "1:0s", "1:1.5s", "2:2s,2:3s", "3:2s,1:3s", "1:25h", "1:-2s"} {
		if _, err := model.ParsePenaltyTiers(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseTiers(t *testing.T) {
	tiers, err := model.ParseTiers([]byte(`[{"path":"/v1/search","limit":3,"window":3},{"path":"/v1/bulk","method":"post","limit":2,"window":"1m","key":"ip"}]`))
	if err != nil || len(tiers) != 2 || tiers[0] != (model.Tier{Path: "/v1/search", Method: "GET", Limit: 3, Window: 3 * time.Second}) ||
		tiers[1].Method != "POST" || tiers[1].Window != time.Minute || tiers[1].Key != "ip" {
		t.Fatalf("got %+v, %v", tiers, err)
	}
	for _, bad := range []string{``, `{}`, `[]`, `[{"path":"x","limit":1,"window":1}]`, `[{"path":"/a","limit":0,"window":1}]`,
		`[{"path":"/a","limit":1,"window":0}]`, `[{"path":"/a","limit":1,"window":1},{"path":"/a","limit":1,"window":1}]`, `[{"path":"/a","limit":1,"window":1,"x":1}]`} {
		if _, err := model.ParseTiers([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
