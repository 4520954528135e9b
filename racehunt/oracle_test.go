package racehunt

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/service"
)

// t0 starts an epoch-aligned 3 s window (1.8e9 is a multiple of 3).
const t0 = int64(1_800_000_000) * int64(time.Second)

func sec(s float64) int64 { return t0 + int64(s*float64(time.Second)) }

// keyHistory is a history of profile p (limit 1, window 3 s, no tolerance)
// built from ops added with add.
type keyHistory struct{ h *History }

func newKeyHistory(p service.Profile, m model.Model) *keyHistory {
	return &keyHistory{h: &History{Limit: 1, Window: 3 * time.Second, Profile: p, Model: m, Dialect: service.DialectXRateLimit}}
}

// add records a request of key "key:k" in flight from..to (seconds after
// t0) answered with status, Remaining rem and Reset t0/1e9 + reset.
func (k *keyHistory) add(from, to float64, status, rem int, reset int64) *keyHistory {
	i := len(k.h.Ops)
	ex := &service.Exchange{Method: http.MethodGet, Status: status, RespHeader: rlHeader(1, rem, t0/int64(time.Second)+reset),
		Sent: time.Unix(0, sec(from)), Received: time.Unix(0, sec(to))}
	if status == http.StatusTooManyRequests {
		ex.RespBody = []byte(`{"error":{"code":"RATE_LIMITED"}}`)
	}
	k.h.Ops = append(k.h.Ops, Op{Index: i, Req: Req{Kind: Fresh}, Bucket: "key:k", Ex: ex,
		ServerFrom: time.Unix(0, sec(from)), ServerTo: time.Unix(0, sec(to))})
	return k
}

// wantIllegal: porcupine finds no linearization (the direct checks, with
// their 1 s tolerance, cannot decide these).
func wantIllegal(t *testing.T, h *History) {
	t.Helper()
	if _, res := verdict(t, h); res != porcupine.Illegal {
		t.Errorf("porcupine: %v, want Illegal", res)
	}
}

func epochHistory() *keyHistory {
	return newKeyHistory(service.ProfileFixedWindow, model.Epoch{Limit: 1, Window: 3 * time.Second})
}

func slidingHistory() *keyHistory {
	return newKeyHistory(service.ProfileSlidingLog, model.SlidingLog{Limit: 1, Window: 3 * time.Second})
}

// TestStepOracleBoundaryInsideRequest: a window boundary inside a
// request's [send, receive] admits the decision of either side; a
// decision that fits neither is caught.
func TestStepOracleBoundaryInsideRequest(t *testing.T) {
	for _, c := range []struct {
		name  string
		h     *keyHistory
		legal bool
	}{
		{"epoch: decided after the boundary", epochHistory().add(1.0, 1.1, 200, 0, 3).add(2.9, 3.1, 200, 0, 6), true},
		{"epoch: decided before the boundary", epochHistory().add(1.0, 1.1, 200, 0, 3).add(2.9, 3.1, 429, 0, 3), true},
		{"epoch: two allowed in one window", epochHistory().add(1.0, 1.1, 200, 0, 3).add(2.0, 2.5, 200, 0, 3), false},
		{"epoch: the next window's Reset before the boundary", epochHistory().add(1.0, 1.1, 200, 0, 3).add(2.0, 2.5, 429, 0, 6), false},
		{"sliding log: the entry leaves inside the request", slidingHistory().add(0, 0.1, 200, 0, 4).add(2.95, 3.2, 200, 0, 7), true},
		{"sliding log: refused before the entry leaves", slidingHistory().add(0, 0.1, 200, 0, 4).add(2.95, 3.2, 429, 0, 3), true},
		{"sliding log: allowed while the entry is in the window", slidingHistory().add(0, 0.1, 200, 0, 4).add(2.5, 2.9, 200, 0, 6), false},
		{"sliding log: refused after the entry left", slidingHistory().add(0, 0.1, 200, 0, 4).add(3.2, 3.3, 429, 0, 7), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.legal {
				wantClean(t, c.h.h)
			} else {
				wantIllegal(t, c.h.h)
			}
		})
	}
}

// TestPlacements: the pieces of constant decision, each tried at both ends.
func TestPlacements(t *testing.T) {
	o := StepOracle{Model: model.Epoch{Limit: 1, Window: 3 * time.Second}}
	got := o.Placements(model.State{}, sec(2.5), sec(3.5))
	want := []int64{sec(2.5), sec(3) - 1, sec(3), sec(3.5)}
	if !slices.Equal(got, want) {
		t.Fatalf("epoch: got %v, want %v", got, want)
	}
	// A sliding log's entry at 0.2 s leaves at 3.2 s: the decision changes
	// there, and at whole seconds (Reset is a whole second).
	sl := StepOracle{Model: model.SlidingLog{Limit: 1, Window: 3 * time.Second}}
	st, _ := sl.Model.Step(model.State{}, spendOne, time.Unix(0, sec(0.2)))
	got = sl.Placements(st, sec(3.1), sec(3.3))
	if !slices.Contains(got, sec(3.2)) || !slices.Contains(got, sec(3.2)-1) || got[0] != sec(3.1) || got[len(got)-1] != sec(3.3) {
		t.Fatalf("sliding log: got %v", got)
	}
	if got := o.Placements(model.State{}, sec(1), sec(1)); !slices.Equal(got, []int64{sec(1)}) {
		t.Fatalf("one instant: %v", got)
	}
}
