package histcheck

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
)

// Class names a kind of violation. Classes are stable strings: rapid
// compares failure messages when it shrinks, so a failure is reported by its
// class and the details go to the Violation.
type Class string

// Violation classes, most specific first.
const (
	ClassOversell       Class = "oversell"            // more 200s in a window than the limit
	ClassDuplicate      Class = "duplicate-remaining" // two spends report the same Remaining
	ClassOrder          Class = "remaining-order"     // Remaining not decreasing in real-time order
	ClassUndersell      Class = "undersell"           // 429 while units were left
	ClassStatus         Class = "bad-status"          // 5xx or another unexpected status
	ClassHeaders        Class = "bad-headers"         // rate-limit headers missing or out of range
	ClassLimited        Class = "bad-429"             // a 429 without error=rate_limited or Remaining=0
	ClassCachedConflict Class = "conflict-got-cache"  // same key, different body, cached response
	ClassLinearizable   Class = "not-linearizable"    // porcupine found no sequential explanation
)

var classOrder = []Class{ClassOversell, ClassDuplicate, ClassUndersell, ClassOrder, ClassCachedConflict, ClassLimited, ClassStatus, ClassHeaders, ClassLinearizable}

// Violation is one broken property with the ops that show it.
type Violation struct {
	Class  Class
	Bucket string
	Detail string
	Ops    []int // indexes into History.Ops
}

func (v Violation) String() string {
	s := string(v.Class)
	if v.Bucket != "" {
		s += " on " + shortBucket(v.Bucket)
	}
	return s + ": " + v.Detail
}

// Primary is the class that names a set of violations: the first of a fixed
// order, so that reruns of a shrunk workload fail with the same message.
func Primary(vs []Violation) Class {
	for _, c := range classOrder {
		for _, v := range vs {
			if v.Class == c {
				return c
			}
		}
	}
	if len(vs) > 0 {
		return vs[0].Class
	}
	return ""
}

// Check inspects a history without porcupine: with what h.Answer leaves to
// auto settled from the first answered op, statuses and headers of every
// response, and per bucket and window (responses grouped by Reset) the
// count, distinctness and order of the successes' Remaining values, and
// 429s while units were left (Checker.Violations).
func Check(h *History) []Violation {
	return CheckerOf(h).Violations()
}

// badOp reports a violation of op o alone.
func badOp(o *Op) func(c Class, format string, args ...any) []Violation {
	return func(c Class, format string, args ...any) []Violation {
		return []Violation{{Class: c, Bucket: o.Bucket, Detail: fmt.Sprintf("op #%d: ", o.Index) + fmt.Sprintf(format, args...), Ops: []int{o.Index}}}
	}
}

// checkResponse is Check of one response for the PRD, read as rd.
func checkResponse(h *History, o *Op, rd *reading) []Violation {
	if o.Unknown() {
		return nil
	}
	bad := badOp(o)
	st := o.Ex.Status
	switch {
	case st == http.StatusOK || st == http.StatusTooManyRequests:
	case (st == http.StatusConflict || st == http.StatusUnprocessableEntity) && (o.Req.Kind == Conflict || o.Req.Kind == Keyed):
		if rd.ob.Present&(dialect.FieldLimit|dialect.FieldRemaining|dialect.FieldReset) != 0 {
			return checkHeaders(h, o, rd, bad)
		}
		return nil
	default:
		return bad(ClassStatus, "HTTP %d for a well-formed %s request", st, o.Req.Kind)
	}
	if vs := checkHeaders(h, o, rd, bad); vs != nil {
		return vs
	}
	if st == http.StatusTooManyRequests {
		rl := rd.rl
		var body struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(o.Ex.RespBody, &body); err != nil || body.Error != "rate_limited" {
			return bad(ClassLimited, "429 body %.80q lacks \"error\":\"rate_limited\"", o.Ex.RespBody)
		}
		if rl.Remaining != 0 {
			return bad(ClassLimited, "429 with Remaining=%d", rl.Remaining)
		}
	}
	return nil
}

func checkHeaders(h *History, o *Op, rd *reading, bad func(Class, string, ...any) []Violation) []Violation {
	rl, err := rd.rl, rd.err
	if err != nil {
		return bad(ClassHeaders, "%v", err)
	}
	if int(rl.Limit) != h.Limit {
		return bad(ClassHeaders, "Limit=%d, want %d", rl.Limit, h.Limit)
	}
	if rl.Remaining > rl.Limit {
		return bad(ClassHeaders, "Remaining=%d above Limit=%d", rl.Remaining, rl.Limit)
	}
	lo := o.ServerFrom.Add(-h.Tolerance - time.Second).Unix()
	hi := o.ServerTo.Add(h.resetHorizon() + h.Tolerance + time.Second).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return bad(ClassHeaders, "Reset=%d outside [now, now+window] = [%d, %d]", rl.Reset, lo, hi)
	}
	return nil
}

// horizoner is a design whose Reset may lie further ahead than a window:
// the time its bucket takes to fill or its queue to drain.
type horizoner interface{ ResetHorizon() time.Duration }

// resetHorizon is the furthest a Reset may lie ahead: the window, or for a
// token bucket the time it takes to fill (⌈B/R⌉ s, TB-7); under penalties
// at least the longest tier.
func (h *History) resetHorizon() time.Duration {
	d := h.Window
	m := design(h.Model)
	if hz, ok := m.(horizoner); ok && hz.ResetHorizon() > 0 {
		d = hz.ResetHorizon()
	}
	if p, ok := h.Model.(model.Penalties); ok {
		for _, t := range p.Tiers {
			d = max(d, t.Duration) // a refusal under a penalty resets at its end
		}
	}
	return d
}

// spend is one unit a bucket's history shows spent: a fresh 200, or an
// idempotency group's 200s counted once.
type spend struct {
	op        *rec
	remaining int64
	reset     int64
}

// group is an idempotency group: its key and body.
type group struct{ idem, body int32 }

func checkBucket(h *History, bucket string, ops []rec) []Violation {
	var vs []Violation
	// Group responses with valid headers by window (Reset within ±1 s).
	var rs []*rec
	unknown := 0
	for i := range ops {
		o := &ops[i]
		if o.unknown() {
			unknown++
			continue
		}
		if (o.status != http.StatusOK && o.status != http.StatusTooManyRequests) || !o.hasRL {
			continue
		}
		rs = append(rs, o)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].reset < rs[j].reset })
	var windows [][]*rec
	for i, r := range rs {
		if i == 0 || r.reset-rs[i-1].reset > 1 {
			windows = append(windows, nil)
		}
		windows[len(windows)-1] = append(windows[len(windows)-1], r)
	}
	// An idempotency group spends in the first window it got a 200 in;
	// later 200s of the group are replays.
	groupWindow := map[group]int{}
	for wi, win := range windows {
		for _, r := range win {
			if r.kind == Keyed && r.status == http.StatusOK {
				k := group{r.idem, r.body}
				if _, ok := groupWindow[k]; !ok {
					groupWindow[k] = wi
				}
			}
		}
	}
	for wi, win := range windows {
		reset := win[0].reset
		// Successes, one per idempotency key: a key's first response is
		// the one with the highest Remaining (replays report later state).
		var spends []spend
		byKey := map[group]int{}
		for _, r := range win {
			if r.status != http.StatusOK {
				continue
			}
			if r.kind == Keyed {
				k := group{r.idem, r.body}
				if groupWindow[k] != wi {
					continue
				}
				if i, ok := byKey[k]; ok {
					if r.rem > spends[i].remaining {
						spends[i] = spend{r, r.rem, r.reset}
					}
					continue
				}
				byKey[k] = len(spends)
			}
			spends = append(spends, spend{r, r.rem, r.reset})
		}
		if len(spends) > h.Limit {
			vs = append(vs, Violation{Class: ClassOversell, Bucket: bucket, Ops: spendOps(spends),
				Detail: fmt.Sprintf("%d successes in the window ending %d, limit %d", len(spends), reset, h.Limit)})
		}
		seen := map[int64]*rec{}
		for _, s := range spends {
			if prev, ok := seen[s.remaining]; ok {
				vs = append(vs, Violation{Class: ClassDuplicate, Bucket: bucket, Ops: []int{int(prev.index), int(s.op.index)},
					Detail: fmt.Sprintf("ops #%d and #%d both got 200 with Remaining=%d in the window ending %d", prev.index, s.op.index, s.remaining, reset)})
				continue
			}
			seen[s.remaining] = s.op
		}
		for _, a := range spends {
			for _, b := range spends {
				if a.op.recv < b.op.sent && a.remaining <= b.remaining {
					vs = append(vs, Violation{Class: ClassOrder, Bucket: bucket, Ops: []int{int(a.op.index), int(b.op.index)},
						Detail: fmt.Sprintf("op #%d (Remaining=%d) completed before op #%d was sent, which got Remaining=%d", a.op.index, a.remaining, b.op.index, b.remaining)})
				}
			}
		}
		// A 429 needs limit spends in its window that could precede it:
		// sent before it was received (unknown ops may have spent too).
		for _, r := range win {
			if r.status != http.StatusTooManyRequests {
				continue
			}
			before := unknown
			for _, s := range spends {
				if s.op.sent < r.recv {
					before++
				}
			}
			if before < h.Limit {
				vs = append(vs, Violation{Class: ClassUndersell, Bucket: bucket, Ops: []int{int(r.index)},
					Detail: fmt.Sprintf("op #%d got 429 after at most %d successes in the window ending %d, limit %d", r.index, before, reset, h.Limit)})
			}
		}
	}
	vs = append(vs, checkConflicts(bucket, ops)...)
	return vs
}

// checkConflicts: a request reusing a key with a different body must not get
// the key's cached 200 body. Only meaningful when the target's 200 bodies
// differ (e.g. carry an id); the porcupine model covers the rest.
func checkConflicts(bucket string, ops []rec) []Violation {
	var vs []Violation
	first := map[int32]*rec{} // key → a 200 of the key's group body
	bodies := map[uint64]bool{}
	for i := range ops {
		o := &ops[i]
		if o.status != http.StatusOK {
			continue
		}
		bodies[o.resp] = true
		if o.kind == Keyed {
			if _, ok := first[o.idem]; !ok {
				first[o.idem] = o
			}
		}
	}
	// Bodies only tell responses apart when they differ at all.
	if len(bodies) < 2 {
		return nil
	}
	for i := range ops {
		o := &ops[i]
		if o.kind != Conflict || o.status != http.StatusOK {
			continue
		}
		if f, ok := first[o.idem]; ok && f.body != o.body && f.resp == o.resp && !f.blank {
			vs = append(vs, Violation{Class: ClassCachedConflict, Bucket: bucket, Ops: []int{int(f.index), int(o.index)},
				Detail: fmt.Sprintf("op #%d reused op #%d's key with a different body and got its cached response", o.index, f.index)})
		}
	}
	return vs
}

func spendOps(ss []spend) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = int(s.op.index)
	}
	return out
}
