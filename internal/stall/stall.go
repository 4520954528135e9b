// Package stall measures how long the process running rlspec could not
// run: a goroutine asks to wake every tick and records how late it woke.
// On a starved machine (a shared CI runner, CPU hogs, a CPU quota) the
// wakes come late, and a check whose bound is on elapsed time can ask how
// much of an exchange's flight rlspec itself lost: a late answer is the
// limiter's only where rlspec ran while it was awaited.
package stall

import (
	"sync"
	"time"
)

// Tick is how often the monitor asks to wake.
const Tick = 5 * time.Millisecond

// keep is how many late wakes the monitor remembers (the last minutes).
const keep = 1 << 15

// minLag is the least lateness of a wake that counts as a stall: a
// running process wakes a fraction of a millisecond late each time, which
// over a second adds up to tens of milliseconds without any starvation.
const minLag = 2 * time.Millisecond

// wake is one late wake: the process could not run during [At − Lag, At].
type wake struct {
	At  time.Time
	Lag time.Duration
}

// Monitor records late wakes until Stop.
type Monitor struct {
	mu    sync.Mutex
	wakes []wake // a ring of the last keep late wakes
	next  int
	stop  chan struct{}
	done  chan struct{}
}

// Start starts a monitor.
func Start() *Monitor {
	m := &Monitor{stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

func (m *Monitor) run() {
	defer close(m.done)
	t := time.NewTicker(Tick)
	defer t.Stop()
	prev := time.Now()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			now := time.Now() // when this goroutine ran, not when the tick was due
			if lag := now.Sub(prev) - Tick; lag >= minLag {
				m.record(wake{At: now, Lag: lag})
			}
			prev = now
		}
	}
}

func (m *Monitor) record(w wake) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.wakes) < keep {
		m.wakes = append(m.wakes, w)
		return
	}
	m.wakes[m.next] = w
	m.next = (m.next + 1) % keep
}

// Lost is how long the process could not run within [from, to].
func (m *Monitor) Lost(from, to time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return lost(m.wakes, from, to)
}

// Stop stops the monitor.
func (m *Monitor) Stop() {
	close(m.stop)
	<-m.done
}

// lost sums the parts of the wakes' stalls inside [from, to].
func lost(wakes []wake, from, to time.Time) time.Duration {
	var sum time.Duration
	for _, w := range wakes {
		start, end := w.At.Add(-w.Lag), w.At
		if start.Before(from) {
			start = from
		}
		if end.After(to) {
			end = to
		}
		if end.After(start) {
			sum += end.Sub(start)
		}
	}
	return sum
}
