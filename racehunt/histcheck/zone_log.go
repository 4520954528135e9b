package histcheck

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
)

// The sliding log (model.SlidingLog) on zones (zone.go). Its state is the
// latest decision time T and the log of allowed decision times still
// in the window, l_1 <= … <= l_k (decisions are appended in linearization
// order, which is decision order), k <= Limit, unix milliseconds, the
// model's clock. A request decided at t finds the last j entries live
// (l > t − W: a suffix, the log being sorted), for some j, and in each
// case every rule is a bound on t and the entries:
//
//   - j live: l_{k−j} <= t − W < l_{k−j+1}; the older entries have left
//     for good (later decisions are later) and drop out of the zone.
//   - allowed iff j < Limit: Remaining Limit − j − 1, Reset ⌈(l_{k−j+1},
//     or t when j = 0, + W) / 1 s⌉, the log after l_{k−j+1} … l_k, t.
//   - refused (j = k = Limit): Remaining 0, Reset ⌊t / 1 s⌋ + ⌈(l_1 + W −
//     t) / 1 s⌉, which is a bound on l_1 − t within each second of t: one
//     zone per second t may fall in. The log stays.
//
// So the states a request may lead to from a zone, over every decision
// time of its interval, are a zone per case and second: a DBM over T and
// the entries (vdbm), where StepOracle keeps one state per tried placement
// (and placements a millisecond apart are logs of their own until their
// entries leave the window).
type logRules struct {
	limit int
	w     int64 // the window, ms
}

const lT, lL = 1, 2 // variables of a log zone: T, then l_1 … l_k

var _ zoneRule[logZone] = logRules{}

// logRulesOf are m's rules when m is a sliding log (of a limit of 1 or
// more, as NewSlidingLog checks).
func logRulesOf(m model.Model) (logRules, bool) {
	if m, ok := m.(model.SlidingLog); ok && m.Limit >= 1 {
		return logRules{limit: m.Limit, w: m.Window.Milliseconds()}, true
	}
	return logRules{}, false
}

func (logRules) tick() int64 { return int64(time.Millisecond) }

// initial is the key never seen: no entry, nothing decided (T = 0).
func (logRules) initial() logZone { return vdbm{2, make([]int64, 4)}.zone() }

func (r logRules) model(h *History) porcupine.Model { return zoneModel(h, r) }

// remembered: no. Porcupine hardly asks for the same op from the same
// zone twice (never in BenchmarkCheck1M, under 1% of the steps in this
// package's tests), and a log zone is a few hundred bytes to hash and
// keep: a memo made the check slower.
func (logRules) remembered() bool { return false }

// canonical is z as it decides every request at or after lo: the entries
// out of the window at lo (l <= lo − W) dropped, and T too once every
// point's T is at most lo (T pinned to lo).
func (r logRules) canonical(z logZone, lo int64) logZone {
	n, gone := z.n(), 0
	for lL+gone < n && z.at(n, lL+gone, 0) <= lo-r.w {
		gone++
	}
	free := z.at(n, lT, 0) <= lo
	if gone == 0 && !free {
		return z
	}
	keep := []int{0, lT}
	for i := lL + gone; i < n; i++ {
		keep = append(keep, i)
	}
	p := z.view().project(keep)
	if free {
		p.pin(lT, lo)
	}
	return p.zone()
}

// next is the zones op (lo..hi, out) leads z to: allowed or refused as out
// says (both when unknown), for each number j of entries live at t.
func (r logRules) next(z logZone, lo, hi int64, out opOutput, slack int64) []logZone {
	if !out.Unknown && out.Status != http.StatusOK && out.Status != http.StatusTooManyRequests {
		return nil
	}
	base := z.grow()
	t := base.n - 1 // the decision time, a variable of the step
	if !base.tighten(lT, t, 0) || !base.tighten(t, 0, hi) || !base.tighten(0, t, -lo) {
		return nil
	}
	// The cases out's status and Remaining allow; the last is given base
	// itself, the others a copy.
	fits := func(j int) bool {
		return out.Unknown || (out.Status == http.StatusOK) == (j < r.limit) && (!out.HasHeaders || out.Rem == max(r.limit-j-1, 0))
	}
	last := t - lL
	for last >= 0 && !fits(last) {
		last--
	}
	var next []vdbm
	for j := range last + 1 {
		if !fits(j) {
			continue
		}
		d := base
		if j < last {
			d = base.clone()
		}
		next = r.live(next, d, j, out, slack)
	}
	zs := make([]logZone, len(next))
	for i, d := range next {
		zs[i] = d.zone()
	}
	return zs
}

// live adds to next the zones of the case where j entries are live at t
// (the step's last variable), d the step's matrix, written.
func (r logRules) live(next []vdbm, d vdbm, j int, out opOutput, slack int64) []vdbm {
	t := d.n - 1
	first := t - j // the oldest live entry; t when none is
	if first > lL && !d.tighten(first-1, t, -r.w) || j > 0 && !d.tighten(t, first, r.w-1) {
		return next
	}
	headers := !out.Unknown && out.HasHeaders
	// The state after: T = t, the live entries, and t when allowed.
	keep := make([]int, 0, j+3)
	keep = append(keep, 0, t)
	for i := first; i < t; i++ {
		keep = append(keep, i)
	}
	if j < r.limit {
		if !headers || r.resetIs(d, first, out.Reset, slack) {
			next = addUnheld(next, d.project(append(keep, t)), vdbm.holds)
		}
		return next
	}
	if !headers || r.resetHolds(d, out.Reset, slack) {
		return addUnheld(next, d.project(keep), vdbm.holds)
	}
	// Refused: a zone per second t may fall in.
	from, to := floorDiv(-d.at(0, t), 1000), floorDiv(d.at(t, 0), 1000)
	for a := from; a <= to; a++ {
		e := d
		if a < to {
			e = d.clone()
		}
		if e.tighten(t, 0, a*1000+999) && e.tighten(0, t, -a*1000) && r.refusedResetIs(e, t, a, out.Reset, slack) {
			next = addUnheld(next, e.project(keep), vdbm.holds)
		}
	}
	return next
}

// resetIs bounds an allowed request's Reset, ⌈(oldest + W) / 1 s⌉, to
// within slack of reset: oldest + W in ((reset−slack−1) s, (reset+slack) s].
func (r logRules) resetIs(d vdbm, oldest int, reset, slack int64) bool {
	return d.tighten(oldest, 0, (reset+slack)*1000-r.w) && d.tighten(0, oldest, r.w-(reset-slack-1)*1000-1)
}

// refusedResetIs bounds a refused request's Reset, decided at t in second
// a: a + ⌈(l_1 + W − t) / 1 s⌉ within slack of reset, so l_1 + W − t in
// ((reset−slack−a−1) s, (reset+slack−a) s].
func (r logRules) refusedResetIs(d vdbm, t int, a, reset, slack int64) bool {
	return d.tighten(lL, t, (reset+slack-a)*1000-r.w) && d.tighten(t, lL, r.w-(reset-slack-a-1)*1000-1)
}

// resetHolds reports whether a refused request's Reset lies within slack
// of reset wherever t falls in its second (t mod 1 s = ρ in [0, 999] ms):
// a + ⌈(l_1 + W − t) / 1 s⌉ = ⌈(l_1 + W − ρ) / 1 s⌉ is, for every ρ, when
// every point's l_1 + W − 999 ms > (reset−slack−1) s and l_1 + W <=
// (reset+slack) s. Then no second need be told apart: the slack usually
// spares the split, as l_1 is known to a few milliseconds.
func (r logRules) resetHolds(d vdbm, reset, slack int64) bool {
	return -d.at(0, lL)+r.w-999 > (reset-slack-1)*1000 && d.at(lL, 0)+r.w <= (reset+slack)*1000
}

func (logRules) describe(z logZone) string {
	d := z.view()
	var b strings.Builder
	fmt.Fprintf(&b, "decided %s, log [", logSpan(d, lT))
	for i := lL; i < d.n; i++ {
		if i > lL {
			b.WriteString(", ")
		}
		b.WriteString(logSpan(d, i))
	}
	b.WriteString("]")
	return b.String()
}

// logSpan is the range of variable v of d, as times of day.
func logSpan(d vdbm, v int) string {
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("15:04:05.000") }
	return at(-d.at(0, v)) + ".." + at(d.at(v, 0))
}
