package histcheck

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// The bucket designs (token bucket, leaky bucket without penalties) are
// checked on zones. A state of theirs is two integers: the instant F the
// bucket is full (its queue empty) again and the latest decision time T,
// unix microseconds, the model's clock. A request decided at t finds the
// bucket full (F <= t) or not, and in either case every rule is a bound on
// t, F − t or the F after: allowed while F − t is at most a cap, Remaining
// a step function of F − t, Reset ⌈F after / 1 s⌉, the F after F + 1
// interval (or t + 1 interval on a full bucket). So the states a request
// may lead to from a set of states, over every decision time of its
// interval, are a zone per case (bounds on F, T and F − T: a
// difference-bound matrix), where StepOracle keeps one state per tried
// placement (the dozen placements of a full bucket's first request of a
// burst, carried through the burst). The zones are exact: a history is
// accepted iff some decision time in each interval, in microseconds and in
// the order linearized, explains every response (TestZoneMatchesEveryPlacement
// tries every microsecond). They so find every violation StepOracle finds
// and raise none it does not, but where a placement between its tries was
// needed. Decision order is kept to the microsecond: two requests decided
// in one microsecond may be taken in either order.

// zone is a closed difference-bound matrix over x0 = 0, x1 = F, x2 = T:
// d[i][j] bounds x_i − x_j from above. Closed, equal sets are equal
// zones.
type zone [3][3]int64

const (
	zF, zT, zt, zF2 = 1, 2, 3, 4 // variables of a step: F, T, t, F after
	zInf            = int64(1) << 60
)

// bucketRules are the bounds of a bucket design on F − t.
type bucketRules struct {
	iv       int64 // microseconds a token (a place) takes to come back
	cap      int64 // allowed while F − t <= cap
	allowedK int   // Remaining of an allowed request: allowedK − ⌈(F−t)/iv⌉
	refusedK int   // of a refused one: refusedK − ⌈(F−t)/iv⌉; −1: always 0
}

// checkedBy names how h's keys are checked for linearizability.
type checkedBy int

const (
	byPRDModel   checkedBy = iota // the PRD's bucket with idempotency (Model)
	byZones                       // the token and leaky buckets without penalties: zones
	byStepOracle                  // any other model.Model: StepOracle, with placement hints
)

// oracleOf is how h is checked, with the zones' rules where it is byZones:
// the one place that chooses (Model, and operations' hints).
func oracleOf(h *History) (checkedBy, bucketRules) {
	if profile.IsPRD(h.Profile) || h.Model == nil {
		return byPRDModel, bucketRules{}
	}
	if r, ok := zoneRules(h.Model); ok {
		return byZones, r
	}
	return byStepOracle, bucketRules{}
}

// zoneRules are m's rules when m is a bucket design the zones check.
func zoneRules(m model.Model) (bucketRules, bool) {
	switch m := m.(type) {
	case model.TokenBucket:
		return bucketRules{iv: m.Interval(), cap: int64(m.Burst-1) * m.Interval(), allowedK: m.Burst - 1, refusedK: m.Burst}, true
	case model.LeakyBucket:
		return bucketRules{iv: m.Interval(), cap: int64(m.Burst) * m.Interval(), allowedK: m.Burst, refusedK: -1}, true
	}
	return bucketRules{}, false
}

// dbm is the matrix of one step: 0, F, T, t and F after.
type dbm [5][5]int64

// le bounds x_i − x_j <= c.
func (d *dbm) le(i, j int, c int64) { d[i][j] = min(d[i][j], c) }

// close tightens every bound (Floyd–Warshall); false when empty.
func (d *dbm) close() bool {
	for k := range d {
		for i := range d {
			if d[i][k] >= zInf {
				continue
			}
			for j := range d {
				if d[k][j] < zInf {
					d[i][j] = min(d[i][j], d[i][k]+d[k][j])
				}
			}
		}
	}
	for i := range d {
		if d[i][i] < 0 {
			return false
		}
	}
	return true
}

// ceilIs bounds ⌈(F − t)/iv⌉ = k, where F − t >= 0.
func (d *dbm) ceilIs(k int, iv int64) bool {
	switch {
	case k < 0:
		return false
	case k == 0:
		d.le(zF, zt, 0)
	default:
		d.le(zt, zF, -(int64(k-1)*iv + 1))
		d.le(zF, zt, int64(k)*iv)
	}
	return true
}

// zoneStep is the zones op (lo..hi, out) leads z to: allowed or refused as
// out says (both when unknown), the bucket full (F <= t) or not.
func (r bucketRules) zoneStep(z zone, lo, hi int64, out opOutput, slack int64) []zone {
	var base dbm
	for i := range base {
		for j := range base {
			base[i][j] = zInf
		}
		base[i][i] = 0
	}
	for i := range z {
		copy(base[i][:3], z[i][:])
	}
	base.le(zT, zt, 0)
	base.le(zt, 0, hi)
	base.le(0, zt, -lo)
	if !out.Unknown && out.Status != http.StatusOK && out.Status != http.StatusTooManyRequests {
		return nil
	}
	var next []zone
	for _, allowed := range []bool{true, false} {
		if !out.Unknown && (out.Status == http.StatusOK) != allowed {
			continue
		}
		for _, full := range []bool{false, true} {
			if full && !allowed {
				continue // F − t = 0 <= cap: a full bucket allows
			}
			d := base
			if !r.rule(&d, allowed, full, out) {
				continue
			}
			if !out.Unknown && out.HasHeaders {
				// Reset = max(⌈E/1 s⌉, ⌊t/1 s⌋ + 1) = ⌈E/1 s⌉, E the full
				// instant after the request, later than t, within slack of
				// out's.
				const s = int64(time.Second / time.Microsecond)
				d.le(zF2, 0, (out.Reset+slack)*s)
				d.le(0, zF2, -((out.Reset-slack-1)*s + 1))
			}
			next = appendZone(next, d)
		}
	}
	return next
}

// rule bounds d by the design's rule for one case: allowed or not, the
// bucket full at t or not; false when the case cannot answer out.
func (r bucketRules) rule(d *dbm, allowed, full bool, out opOutput) bool {
	headers := !out.Unknown && out.HasHeaders
	if full {
		// F <= t: the request finds a full bucket, F − t counts as 0.
		d.le(zF, zt, 0)
		d.le(zF2, zt, r.iv)
		d.le(zt, zF2, -r.iv)
		return !headers || r.allowedK-out.Rem == 0
	}
	d.le(zt, zF, 0)
	if !allowed {
		d.le(zt, zF, -(r.cap + 1))
		d.le(zF2, zF, 0)
		d.le(zF, zF2, 0)
		if !headers {
			return true
		}
		if r.refusedK < 0 {
			return out.Rem == 0
		}
		return d.ceilIs(r.refusedK-out.Rem, r.iv)
	}
	d.le(zF, zt, r.cap)
	d.le(zF2, zF, r.iv)
	d.le(zF, zF2, -r.iv)
	return !headers || d.ceilIs(r.allowedK-out.Rem, r.iv)
}

// appendZone adds d's F after and t, as the next F and T, to zs, unless d
// is empty or a zone of zs holds it (one it holds is replaced).
func appendZone(zs []zone, d dbm) []zone {
	if !d.close() {
		return zs
	}
	vars := [3]int{0, zF2, zt}
	var z zone
	for i, a := range vars {
		for j, b := range vars {
			z[i][j] = d[a][b]
		}
	}
	for i, o := range zs {
		switch {
		case o.holds(z):
			return zs
		case z.holds(o):
			zs[i] = z
			return zs
		}
	}
	return append(zs, z)
}

// holds reports whether every point of o is in z.
func (z zone) holds(o zone) bool {
	for i := range z {
		for j := range z {
			if z[i][j] < o[i][j] {
				return false
			}
		}
	}
	return true
}

// canonicalAt is z as it decides every request at or after lo: T dropped
// once every point's T is at most lo (later decisions are at lo or after),
// and F too once every point's bucket is full by then; z itself otherwise.
func (z zone) canonicalAt(lo int64) zone {
	if z[zT][0] > lo {
		return z
	}
	fLo, fHi := -z[0][zF], z[zF][0]
	if fHi <= lo {
		fLo, fHi = lo, lo
	}
	return zone{{0, -fLo, -lo}, {fHi, 0, fHi - lo}, {lo, lo - fLo, 0}}
}

// zoneMemo remembers zoneStep's answers, as stepMemo StepOracle's.
type zoneMemo struct {
	r     bucketRules
	tol   int64
	slack int64
	mu    sync.Mutex
	m     map[zoneKey][]zone
}

type zoneKey struct {
	z     zone
	index int
}

func (c *zoneMemo) step(z zone, input, output any) []zone {
	in, out := input.(opInput), output.(opOutput)
	lo := (in.From - c.tol) / int64(time.Microsecond)
	hi := (in.To + c.tol) / int64(time.Microsecond)
	// Canonical at lo where the op takes effect only: later ops are then
	// decided at lo or after, but not when it never took effect.
	at := z.canonicalAt(lo)
	k := zoneKey{at, in.Index}
	c.mu.Lock()
	next, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		next = c.r.zoneStep(at, lo, hi, out, c.slack)
		c.mu.Lock()
		c.m[k] = next
		c.mu.Unlock()
	}
	if out.Unknown {
		// The op may never have taken effect: z itself goes on.
		return append([]zone{z}, next...)
	}
	return next
}

// zoneModel is the porcupine model of a history of a bucket design r
// (operations partitioned by key); the initial zone is the key never
// seen, full since the epoch.
func zoneModel(h *History, r bucketRules) porcupine.Model {
	memo := &zoneMemo{r: r, tol: int64(h.Tolerance), slack: 1, m: map[zoneKey][]zone{}}
	sp := &setSpec[zone]{step: memo.step}
	return sp.model(func(z zone) string {
		return fmt.Sprintf("full %s..%s, decided %s..%s", zoneTime(-z[0][zF]), zoneTime(z[zF][0]), zoneTime(-z[0][zT]), zoneTime(z[zT][0]))
	})
}

func zoneTime(us int64) string {
	return time.UnixMicro(us).UTC().Format("15:04:05.000000")
}
