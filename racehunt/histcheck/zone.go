package histcheck

import (
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// Zones: the designs whose rules are all bounds on differences of times
// (a request's decision time t and the times a state keeps) are checked on
// zones, not on StepOracle's placements: every decision time of a
// request's interval at once, the states it may lead to one
// difference-bound matrix (DBM) per case, as the clock zones of timed
// automata. The token and leaky buckets without penalties (zone_bucket.go:
// the instant the bucket is full again) and the sliding log (zone_log.go:
// the log's entries) are. A design's zones are exact: a history is
// accepted iff some decision time in each interval, in ticks of the
// design's clock (µs for the buckets, ms for the sliding log) and in the
// order linearized, explains every response (TestZoneMatchesEveryPlacement
// and TestLogZoneMatchesEveryPlacement try every tick). They so find every
// violation StepOracle finds and raise none it does not, but where a
// placement between its tries was needed. Decision order is kept to the
// tick: two requests decided in one tick may be taken in either order.

// zInf is a DBM's "no bound".
const zInf = int64(1) << 60

// checkedBy names how h's keys are checked for linearizability.
type checkedBy int

const (
	byPRDModel   checkedBy = iota // the PRD's bucket with idempotency (Model)
	byZones                       // the buckets without penalties, the sliding log: zones
	byStepOracle                  // any other model.Model: StepOracle, with placement hints
)

// zoneDesign is a design checked on zones: its porcupine model.
type zoneDesign interface {
	model(h *History) porcupine.Model
}

// oracleOf is how h is checked, with the design's zones where it is
// byZones: the one place that chooses (Model, and operations' hints).
func oracleOf(h *History) (checkedBy, zoneDesign) {
	if profile.IsPRD(h.Profile) || h.Model == nil {
		return byPRDModel, nil
	}
	if d, ok := zoneRules(h.Model); ok {
		return byZones, d
	}
	return byStepOracle, nil
}

// zoneRules are m's zones when m is a design the zones check.
func zoneRules(m model.Model) (zoneDesign, bool) {
	if r, ok := bucketRulesOf(m); ok {
		return r, true
	}
	if r, ok := logRulesOf(m); ok {
		return r, true
	}
	return nil, false
}

// zoneRule is a design's rules on its zones Z, times in ticks of its
// clock.
type zoneRule[Z comparable] interface {
	tick() int64 // nanoseconds
	initial() Z  // the key never seen
	// canonical is z as it decides every request at or after lo.
	canonical(z Z, lo int64) Z
	// next are the zones a request decided in lo..hi, answered out (any
	// answer when out.Unknown), leads z to; Reset within slack seconds.
	next(z Z, lo, hi int64, out opOutput, slack int64) []Z
	// remembered: next's answers are worth a memo.
	remembered() bool
	describe(z Z) string
}

// zoneMemo steps a design's zones for porcupine and, where the design
// says they are worth it (remembered), remembers its steps, as stepMemo
// StepOracle's.
type zoneMemo[Z comparable] struct {
	r     zoneRule[Z]
	tol   int64 // nanoseconds
	slack int64
	mu    sync.Mutex
	m     map[zoneKey[Z]][]Z // nil: not remembered
}

type zoneKey[Z comparable] struct {
	z     Z
	index int
}

func newZoneMemo[Z comparable](r zoneRule[Z], tol time.Duration) *zoneMemo[Z] {
	c := &zoneMemo[Z]{r: r, tol: int64(tol), slack: 1}
	if r.remembered() {
		c.m = map[zoneKey[Z]][]Z{}
	}
	return c
}

func (c *zoneMemo[Z]) step(z Z, input, output any) []Z {
	in, out := input.(opInput), output.(opOutput)
	tick := c.r.tick()
	lo, hi := floorDiv(in.From-c.tol, tick), floorDiv(in.To+c.tol, tick)
	// Canonical at lo where the op takes effect only: later ops are then
	// decided at lo or after, but not when it never took effect.
	k := zoneKey[Z]{c.r.canonical(z, lo), in.Index}
	next, ok := c.lookup(k)
	if !ok {
		next = c.r.next(k.z, lo, hi, out, c.slack)
		c.store(k, next)
	}
	if out.Unknown {
		// The op may never have taken effect: z itself goes on.
		return append([]Z{z}, next...)
	}
	return next
}

func (c *zoneMemo[Z]) lookup(k zoneKey[Z]) ([]Z, bool) {
	if c.m == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next, ok := c.m[k]
	return next, ok
}

func (c *zoneMemo[Z]) store(k zoneKey[Z], next []Z) {
	if c.m != nil {
		c.mu.Lock()
		c.m[k] = next
		c.mu.Unlock()
	}
}

// zoneModel is the porcupine model of a history of a design checked on
// zones r (operations partitioned by key), from the key never seen.
func zoneModel[Z comparable](h *History, r zoneRule[Z]) porcupine.Model {
	sp := &setSpec[Z]{init: r.initial(), step: newZoneMemo(r, h.Tolerance).step}
	return sp.model(r.describe)
}

// addUnheld adds z to zs unless a zone of zs holds it (one z holds is
// replaced): holds(a, b) reports whether every point of b is in a.
func addUnheld[Z any](zs []Z, z Z, holds func(a, b Z) bool) []Z {
	for i, o := range zs {
		switch {
		case holds(o, z):
			return zs
		case holds(z, o):
			zs[i] = z
			return zs
		}
	}
	return append(zs, z)
}

// floorDiv is ⌊a / b⌋, b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
