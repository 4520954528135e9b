package scenario

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
)

// Turns gives the scenarios that run alone (they take the store away or
// restart the target) their place in the run's order. godog starts up to
// its concurrency of scenarios at once, in the order of the features; a
// lone scenario waits for the scenarios already running, and without
// Turns a scenario started after it could take its read lock first and
// hold the lone one back for its whole length. With Turns a scenario
// first waits for every lone scenario before it in the order to end.
type Turns struct {
	pos   map[string]int // scenario id → its first place in the order
	mu    sync.Mutex
	alone []*loneTurn // in the order
}

// loneTurn is one lone scenario's id: done is closed when all of its rows
// have ended.
type loneTurn struct {
	id   string
	pos  int
	left int
	done chan struct{}
}

// NewTurns orders the run's scenarios: ids in the order godog starts them
// (a Scenario Outline's rows share one id), alone telling which run alone.
func NewTurns(ids []string, alone func(id string) bool) *Turns {
	t := &Turns{pos: map[string]int{}}
	lone := map[string]*loneTurn{}
	for i, id := range ids {
		if _, seen := t.pos[id]; !seen {
			t.pos[id] = i
		}
		if !alone(id) {
			continue
		}
		if lone[id] == nil {
			lone[id] = &loneTurn{id: id, pos: i, done: make(chan struct{})}
			t.alone = append(t.alone, lone[id])
		}
		lone[id].left++
	}
	return t
}

// wait waits until every lone scenario before id has ended, ctx ends or
// limit passes (a safety net: a lone scenario godog never ran must not
// hold the rest up for ever). A scenario not in the order waits for none.
func (t *Turns) wait(ctx context.Context, id string, limit time.Duration) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for _, done := range t.before(id) {
		select {
		case <-done:
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

// before is what id waits for: the done channels of the lone scenarios
// before it in the order.
func (t *Turns) before(id string) []<-chan struct{} {
	if t == nil {
		return nil
	}
	at, ok := t.pos[id]
	if !ok {
		return nil
	}
	var out []<-chan struct{}
	for _, l := range t.alone {
		if l.pos < at {
			out = append(out, l.done)
		}
	}
	return out
}

// end marks one row of the lone scenario id ended.
func (t *Turns) end(id string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range t.alone {
		if l.id == id && l.left > 0 {
			if l.left--; l.left == 0 {
				close(l.done)
			}
		}
	}
}

// scenarioID is sc's @id: tag without its prefix; "" without one.
func scenarioID(sc *godog.Scenario) string {
	for _, t := range sc.Tags {
		if id, ok := strings.CutPrefix(t.Name, "@id:"); ok {
			return id
		}
	}
	return ""
}
