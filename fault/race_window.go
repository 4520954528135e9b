package fault

import (
	"sync"
	"time"

	"github.com/rlspec/rlspec/reference"
)

// RaceWindow is how long the race faults hold their race open, on the
// server's clock: a write stays unseen by the requests racing it on the same
// key for this long. A real race depends on scheduling; the self-test must
// catch a fault on every run, and a burst of concurrent requests always
// arrives within 200 ms.
const RaceWindow = 200 * time.Millisecond

// FirstWrites remembers when each key was first written, for the faults that
// hide a key's first write from the requests racing it.
type FirstWrites struct {
	clock reference.Clock
	mu    sync.Mutex
	at    map[string]time.Time
}

func NewFirstWrites(clock reference.Clock) *FirstWrites {
	return &FirstWrites{clock: clock, at: map[string]time.Time{}}
}

// Hidden reports whether key's first write is younger than raceWindow.
func (f *FirstWrites) Hidden(key string) bool {
	f.mu.Lock()
	first, ok := f.at[key]
	f.mu.Unlock()
	return ok && f.clock.Now().Sub(first) < RaceWindow
}

// Wrote notes a write of key; only the first one counts.
func (f *FirstWrites) Wrote(key string) {
	f.mu.Lock()
	if _, ok := f.at[key]; !ok {
		f.at[key] = f.clock.Now()
	}
	f.mu.Unlock()
}
