package model_test

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestPRDRule(t *testing.T) {
	m := model.PRD{Limit: 3, Window: time.Hour}
	now := t0.Unix()
	spend, look := model.Request{Cost: 1}, model.Request{Cost: 0}
	for _, c := range []struct {
		name string
		st   model.State
		req  model.Request
		at   int64 // seconds after t0
		next model.State
		d    model.Decision
	}{
		{"first request opens a window", model.State{}, spend, 0,
			model.State{Found: true, Remaining: 2, Reset: now + 3600},
			model.Decision{Allowed: true, Limit: 3, Remaining: 2, Reset: now + 3600, Write: true}},
		{"a spend keeps Reset", model.State{Found: true, Remaining: 2, Reset: now + 100}, spend, 0,
			model.State{Found: true, Remaining: 1, Reset: now + 100},
			model.Decision{Allowed: true, Limit: 3, Remaining: 1, Reset: now + 100, Write: true}},
		{"exhausted: 429, nothing changes", model.State{Found: true, Remaining: 0, Reset: now + 100}, spend, 0,
			model.State{Found: true, Remaining: 0, Reset: now + 100},
			model.Decision{Limit: 3, Remaining: 0, Reset: now + 100, RetryAfter: 100}},
		{"RetryAfter at least 1", model.State{Found: true, Remaining: 0, Reset: now + 1}, spend, 0,
			model.State{Found: true, Remaining: 0, Reset: now + 1},
			model.Decision{Limit: 3, Remaining: 0, Reset: now + 1, RetryAfter: 1}},
		{"Reset == now refills", model.State{Found: true, Remaining: 0, Reset: now}, spend, 0,
			model.State{Found: true, Remaining: 2, Reset: now + 3600},
			model.Decision{Allowed: true, Limit: 3, Remaining: 2, Reset: now + 3600, Write: true}},
		{"seeded negative quota shows 0", model.State{Found: true, Remaining: -4, Reset: now + 9}, spend, 0,
			model.State{Found: true, Remaining: -4, Reset: now + 9},
			model.Decision{Limit: 3, Remaining: 0, Reset: now + 9, RetryAfter: 9}},
		{"look at an absent key: a full window from now", model.State{}, look, 5,
			model.State{},
			model.Decision{Allowed: true, Limit: 3, Remaining: 3, Reset: now + 5 + 3600}},
		{"look at an expired key: a full window from now", model.State{Found: true, Remaining: 0, Reset: now}, look, 0,
			model.State{Found: true, Remaining: 0, Reset: now},
			model.Decision{Allowed: true, Limit: 3, Remaining: 3, Reset: now + 3600}},
		{"look at a live key: as stored", model.State{Found: true, Remaining: 1, Reset: now + 7}, look, 0,
			model.State{Found: true, Remaining: 1, Reset: now + 7},
			model.Decision{Allowed: true, Limit: 3, Remaining: 1, Reset: now + 7}},
	} {
		t.Run(c.name, func(t *testing.T) {
			next, d := m.Step(c.st, c.req, t0.Add(time.Duration(c.at)*time.Second))
			if next != c.next || d != c.d {
				t.Errorf("got %+v %+v\nwant %+v %+v", next, d, c.next, c.d)
			}
		})
	}
}

func TestEpochAligned(t *testing.T) {
	m := model.Epoch{Limit: 2, Window: 10 * time.Second}
	at := func(sec int64) time.Time { return time.Unix(sec, 0) }
	st, d := m.Step(model.State{}, model.Request{Cost: 1}, at(1003))
	if !d.Allowed || d.Reset != 1010 || d.Remaining != 1 {
		t.Fatalf("first: %+v", d)
	}
	st, _ = m.Step(st, model.Request{Cost: 1}, at(1009))
	if _, d = m.Step(st, model.Request{Cost: 1}, at(1009)); d.Allowed || d.RetryAfter != 1 {
		t.Fatalf("third in window: %+v", d)
	}
	if _, d = m.Step(st, model.Request{Cost: 1}, at(1010)); !d.Allowed || d.Reset != 1020 {
		t.Fatalf("next window: %+v", d)
	}
	if _, d = m.Step(model.State{}, model.Request{Cost: 1}, at(-1)); d.Reset != 0 {
		t.Fatalf("before the epoch: Reset %d, want 0", d.Reset)
	}
}

func TestNewPRDRejects(t *testing.T) {
	for _, c := range []struct {
		n int
		w time.Duration
	}{{0, time.Hour}, {1, 0}, {1, 1500 * time.Millisecond}} {
		if _, err := model.NewPRD(c.n, c.w); err == nil {
			t.Errorf("NewPRD(%d, %v): no error", c.n, c.w)
		}
	}
	if _, err := model.NewPRD(500, time.Hour); err != nil {
		t.Error(err)
	}
}
