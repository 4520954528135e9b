package postgres

import (
	"sync"

	"github.com/rlspec/rlspec/model"
)

// stateCache remembers each bucket's state as this process last read or
// wrote it. It is a hint, never an answer: an optimistic Update writes only
// if the row still holds the cached state (optimistic.go), so a stale entry
// costs one fallback to the locked path and nothing else. Other instances,
// retention and TARGET_DB seeding may change rows behind it at any time.
type stateCache struct {
	max int
	mu  sync.Mutex
	m   map[string]model.State
}

func newStateCache(max int) *stateCache {
	return &stateCache{max: max, m: make(map[string]model.State)}
}

func (c *stateCache) get(id string) (model.State, bool) {
	if c.max == 0 {
		return model.State{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[id]
	return st, ok
}

// put remembers a found state; a full cache drops an arbitrary entry first.
func (c *stateCache) put(id string, st model.State) {
	if c.max == 0 || !st.Found {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; !ok && len(c.m) >= c.max {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[id] = st
}

func (c *stateCache) forget(id string) {
	if c.max == 0 {
		return
	}
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}
