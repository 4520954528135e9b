package model

import (
	"testing"
	"time"
)

// key-grid: after an idle gap that is not a multiple of W, the next window
// ends on the grid of the key's first request, not W after the request.
func TestKeyGridKeepsItsGrid(t *testing.T) {
	m, err := NewKeyGrid(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var st State
	var d Decision
	st, d = m.Step(st, Request{Cost: 1}, time.Unix(1003, 0))
	if !d.Allowed || d.Reset != 1013 {
		t.Fatalf("first request: %+v, want a window ending 1013", d)
	}
	// 25 s later: two whole windows on, the window of [1023, 1033).
	st, d = m.Step(st, Request{Cost: 1}, time.Unix(1028, 0))
	if !d.Allowed || d.Reset != 1033 || d.Remaining != 1 {
		t.Fatalf("after the gap: %+v, want a fresh window ending 1033", d)
	}
	if _, d = m.Step(st, Request{Cost: 1}, time.Unix(1033, 0)); d.Reset != 1043 {
		t.Fatalf("at the end: %+v, want the next grid window", d)
	}
	// The first-request window would have ended at 1038.
	if _, d = (PRD{Limit: 2, Window: 10 * time.Second}).Step(State{Found: true, Remaining: 1, Reset: 1013}, Request{Cost: 1}, time.Unix(1028, 0)); d.Reset != 1038 {
		t.Fatalf("PRD after the gap: %+v", d)
	}
	if _, err := NewKeyGrid(1, 1500*time.Millisecond); err == nil {
		t.Fatal("a fractional window accepted")
	}
}

// grid: one grid for every key, anchored at Anchor; the epoch is the grid
// anchored at 0.
func TestGridAnchor(t *testing.T) {
	m, err := NewGrid(3, 10*time.Second, time.Unix(1007, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ at, end int64 }{{1007, 1017}, {1016, 1017}, {1017, 1027}, {1000, 1007}, {996, 997}} {
		if _, d := m.Step(State{}, Request{Cost: 1}, time.Unix(c.at, 0)); d.Reset != c.end || !d.Allowed {
			t.Errorf("at %d: %+v, want the window ending %d", c.at, d, c.end)
		}
	}
	e := Epoch{Limit: 3, Window: 10 * time.Second}
	g := Grid{Limit: 3, Window: 10 * time.Second}
	for at := int64(-25); at < 40; at++ {
		_, de := e.Step(State{}, Request{Cost: 1}, time.Unix(at, 0))
		_, dg := g.Step(State{}, Request{Cost: 1}, time.Unix(at, 0))
		if de != dg {
			t.Fatalf("at %d: epoch %+v, grid at 0 %+v", at, de, dg)
		}
	}
}
