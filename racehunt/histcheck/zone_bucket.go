package histcheck

import (
	"fmt"
	"net/http"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
)

// The bucket designs (token bucket, leaky bucket without penalties) on
// zones (zone.go). A state of theirs is two integers: the instant F the
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
// burst, carried through the burst).

// zone is a closed difference-bound matrix over x0 = 0, x1 = F, x2 = T:
// d[i][j] bounds x_i − x_j from above. Closed, equal sets are equal
// zones.
type zone [3][3]int64

const zF, zT, zt, zF2 = 1, 2, 3, 4 // variables of a step: F, T, t, F after

// bucketRules are the bounds of a bucket design on F − t.
type bucketRules struct {
	iv       int64 // microseconds a token (a place) takes to come back
	cap      int64 // allowed while F − t <= cap
	allowedK int   // Remaining of an allowed request: allowedK − ⌈(F−t)/iv⌉
	refusedK int   // of a refused one: refusedK − ⌈(F−t)/iv⌉; −1: always 0
}

var _ zoneRule[zone] = bucketRules{}

// bucketRulesOf are m's rules when m is a bucket design the zones check.
func bucketRulesOf(m model.Model) (bucketRules, bool) {
	switch m := m.(type) {
	case model.TokenBucket:
		return bucketRules{iv: m.Interval(), cap: int64(m.Burst-1) * m.Interval(), allowedK: m.Burst - 1, refusedK: m.Burst}, true
	case model.LeakyBucket:
		return bucketRules{iv: m.Interval(), cap: int64(m.Burst) * m.Interval(), allowedK: m.Burst, refusedK: -1}, true
	}
	return bucketRules{}, false
}

func (bucketRules) tick() int64      { return int64(time.Microsecond) }
func (bucketRules) initial() zone    { return zone{} } // full since the epoch
func (bucketRules) remembered() bool { return true }

func (r bucketRules) model(h *History) porcupine.Model { return zoneModel(h, r) }

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

// next is the zones op (lo..hi, out) leads z to: allowed or refused as
// out says (both when unknown), the bucket full (F <= t) or not.
func (r bucketRules) next(z zone, lo, hi int64, out opOutput, slack int64) []zone {
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
	return addUnheld(zs, z, zone.holds)
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

// canonical is z as it decides every request at or after lo: T dropped
// once every point's T is at most lo (later decisions are at lo or after),
// and F too once every point's bucket is full by then; z itself otherwise.
func (bucketRules) canonical(z zone, lo int64) zone {
	if z[zT][0] > lo {
		return z
	}
	fLo, fHi := -z[0][zF], z[zF][0]
	if fHi <= lo {
		fLo, fHi = lo, lo
	}
	return zone{{0, -fLo, -lo}, {fHi, 0, fHi - lo}, {lo, lo - fLo, 0}}
}

func (bucketRules) describe(z zone) string {
	return fmt.Sprintf("full %s..%s, decided %s..%s", zoneTime(-z[0][zF]), zoneTime(z[zF][0]), zoneTime(-z[0][zT]), zoneTime(z[zT][0]))
}

func zoneTime(us int64) string {
	return time.UnixMicro(us).UTC().Format("15:04:05.000000")
}
