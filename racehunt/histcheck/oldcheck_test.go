package histcheck

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// The checks of the whole history before Checker: the oracle of
// TestCheckerGivesTheVerdictsOfTheWholeHistoryCheck (equiv_test.go).

func oldCheck(h *History) []Violation {
	var vs []Violation
	oldResolveAnswer(h)
	if profile.IsPRD(h.Profile) {
		for i := range h.Ops {
			vs = append(vs, checkResponse(h, &h.Ops[i], oldRead(&h.Ops[i]))...)
		}
		for bucket, ops := range oldByBucket(h) {
			vs = append(vs, oldCheckBucket(h, bucket, ops)...)
		}
	} else {
		vs = oldCheckProfile(h)
	}
	sort.SliceStable(vs, func(i, j int) bool {
		if vs[i].Bucket != vs[j].Bucket {
			return vs[i].Bucket < vs[j].Bucket
		}
		return vs[i].Class < vs[j].Class
	})
	return vs
}

func oldResolveAnswer(h *History) {
	settled := h.Answer.Dialect.Concrete() && (h.Answer.Dialect != dialect.XRateLimit || h.Answer.ResetFormat.Concrete())
	for i := range h.Ops {
		o := &h.Ops[i]
		if settled || o.Unknown() || o.Ex.Status/100 != 2 && !h.Answer.Refused(o.Ex.Status) {
			continue
		}
		d := h.Answer.Detect(dialect.Response{Status: o.Ex.Status, Header: o.Ex.RespHeader, Body: o.Ex.RespBody, Received: o.Ex.Received})
		h.Answer = d.Settings
		h.Notes = append(h.Notes, d.Sentence(fmt.Sprintf("op %d, the first answered", o.Index)))
		break
	}
	for i := range h.Ops {
		if o := &h.Ops[i]; o.Ex != nil {
			o.Ex.Answer = h.Answer
		}
	}
}

// oldRead is an op's reading as main's checks made it, each part on its
// own: Exchange.Observe, Exchange.RateLimit.
func oldRead(o *Op) *reading {
	if o.Unknown() {
		return &reading{err: errors.New("no response")}
	}
	rl, err := o.Ex.RateLimit()
	return &reading{ob: o.Ex.Observe(), rl: rl, err: err}
}

func oldByBucket(h *History) map[string][]*Op {
	m := map[string][]*Op{}
	for i := range h.Ops {
		o := &h.Ops[i]
		m[o.Bucket] = append(m[o.Bucket], o)
	}
	return m
}

type oldSpend struct {
	op        *Op
	remaining int64
	reset     int64
}

func oldCheckBucket(h *History, bucket string, ops []*Op) []Violation {
	var vs []Violation
	// Group responses with valid headers by window (Reset within ±1 s).
	type resp struct {
		op *Op
		rl struct{ rem, reset int64 }
	}
	var rs []resp
	unknown := 0
	for _, o := range ops {
		if o.Unknown() {
			unknown++
			continue
		}
		if o.Ex.Status != http.StatusOK && o.Ex.Status != http.StatusTooManyRequests {
			continue
		}
		rl, err := RateLimitOf(o)
		if err != nil {
			continue
		}
		r := resp{op: o}
		r.rl.rem, r.rl.reset = rl.Remaining, rl.Reset
		rs = append(rs, r)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rl.reset < rs[j].rl.reset })
	var windows [][]resp
	for i, r := range rs {
		if i == 0 || r.rl.reset-rs[i-1].rl.reset > 1 {
			windows = append(windows, nil)
		}
		windows[len(windows)-1] = append(windows[len(windows)-1], r)
	}
	// An idempotency group spends in the first window it got a 200 in;
	// later 200s of the group are replays.
	groupWindow := map[string]int{}
	for wi, win := range windows {
		for _, r := range win {
			if r.op.Req.Kind == Keyed && r.op.Ex.Status == http.StatusOK {
				k := r.op.IdemKey + "\x00" + r.op.BodyHash
				if _, ok := groupWindow[k]; !ok {
					groupWindow[k] = wi
				}
			}
		}
	}
	for wi, win := range windows {
		reset := win[0].rl.reset
		// Successes, one per idempotency key: a key's first response is
		// the one with the highest Remaining (replays report later state).
		var spends []oldSpend
		byKey := map[string]int{}
		for _, r := range win {
			if r.op.Ex.Status != http.StatusOK {
				continue
			}
			if r.op.Req.Kind == Keyed {
				k := r.op.IdemKey + "\x00" + r.op.BodyHash
				if groupWindow[k] != wi {
					continue
				}
				if i, ok := byKey[k]; ok {
					if r.rl.rem > spends[i].remaining {
						spends[i] = oldSpend{r.op, r.rl.rem, r.rl.reset}
					}
					continue
				}
				byKey[k] = len(spends)
			}
			spends = append(spends, oldSpend{r.op, r.rl.rem, r.rl.reset})
		}
		if len(spends) > h.Limit {
			vs = append(vs, Violation{Class: ClassOversell, Bucket: bucket, Ops: oldSpendOps(spends),
				Detail: fmt.Sprintf("%d successes in the window ending %d, limit %d", len(spends), reset, h.Limit)})
		}
		seen := map[int64]*Op{}
		for _, s := range spends {
			if prev, ok := seen[s.remaining]; ok {
				vs = append(vs, Violation{Class: ClassDuplicate, Bucket: bucket, Ops: []int{prev.Index, s.op.Index},
					Detail: fmt.Sprintf("ops #%d and #%d both got 200 with Remaining=%d in the window ending %d", prev.Index, s.op.Index, s.remaining, reset)})
				continue
			}
			seen[s.remaining] = s.op
		}
		for _, a := range spends {
			for _, b := range spends {
				if a.op.Ex.Received.Before(b.op.Ex.Sent) && a.remaining <= b.remaining {
					vs = append(vs, Violation{Class: ClassOrder, Bucket: bucket, Ops: []int{a.op.Index, b.op.Index},
						Detail: fmt.Sprintf("op #%d (Remaining=%d) completed before op #%d was sent, which got Remaining=%d", a.op.Index, a.remaining, b.op.Index, b.remaining)})
				}
			}
		}
		// A 429 needs limit spends in its window that could precede it:
		// sent before it was received (unknown ops may have spent too).
		for _, r := range win {
			if r.op.Ex.Status != http.StatusTooManyRequests {
				continue
			}
			before := unknown
			for _, s := range spends {
				if s.op.Ex.Sent.Before(r.op.Ex.Received) {
					before++
				}
			}
			if before < h.Limit {
				vs = append(vs, Violation{Class: ClassUndersell, Bucket: bucket, Ops: []int{r.op.Index},
					Detail: fmt.Sprintf("op #%d got 429 after at most %d successes in the window ending %d, limit %d", r.op.Index, before, reset, h.Limit)})
			}
		}
	}
	vs = append(vs, oldCheckConflicts(bucket, ops)...)
	return vs
}

func oldCheckConflicts(bucket string, ops []*Op) []Violation {
	var vs []Violation
	first := map[string]*Op{} // key → a 200 of the key's group body
	for _, o := range ops {
		if o.Req.Kind == Keyed && !o.Unknown() && o.Ex.Status == http.StatusOK {
			if _, ok := first[o.IdemKey]; !ok {
				first[o.IdemKey] = o
			}
		}
	}
	// Bodies only tell responses apart when they differ at all.
	bodies := map[string]bool{}
	for _, o := range ops {
		if !o.Unknown() && o.Ex.Status == http.StatusOK {
			bodies[string(o.Ex.RespBody)] = true
		}
	}
	if len(bodies) < 2 {
		return nil
	}
	for _, o := range ops {
		if o.Req.Kind != Conflict || o.Unknown() || o.Ex.Status != http.StatusOK {
			continue
		}
		if f, ok := first[o.IdemKey]; ok && f.BodyHash != o.BodyHash && string(f.Ex.RespBody) == string(o.Ex.RespBody) && strings.TrimSpace(string(f.Ex.RespBody)) != "" {
			vs = append(vs, Violation{Class: ClassCachedConflict, Bucket: bucket, Ops: []int{f.Index, o.Index},
				Detail: fmt.Sprintf("op #%d reused op #%d's key with a different body and got its cached response", o.Index, f.Index)})
		}
	}
	return vs
}

func oldSpendOps(ss []oldSpend) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = s.op.Index
	}
	return out
}

func oldCheckProfile(h *History) []Violation {
	var vs []Violation
	for i := range h.Ops {
		vs = append(vs, checkKeyedResponse(h, &h.Ops[i], oldRead(&h.Ops[i]))...)
	}
	return append(vs, oldCheckBounds(h)...)
}

func oldCheckBounds(h *History) []Violation {
	var es, answered []bound.Event
	unknown := map[string]bool{}
	for i := range h.Ops {
		o := &h.Ops[i]
		if o.Unknown() {
			unknown[o.Bucket] = true
			continue
		}
		if st := o.Ex.Status; st == http.StatusOK || h.Answer.Refused(st) {
			es = append(es, bound.Event{ID: o.Index, Key: o.Bucket, Send: o.ServerFrom.UnixNano(), Recv: o.ServerTo.UnixNano(), Allowed: st == http.StatusOK})
		}
	}
	for _, e := range es {
		if !unknown[e.Key] {
			answered = append(answered, e)
		}
	}
	// profiles.md adds 1 s for the server's clock granularity, also on the
	// fake clock's exact times: designs keep whole seconds (a window opened
	// at 12.5 s by the first request ends at 15 s, not 15.5 s). The
	// linearizability check holds the model's exact decisions.
	n, w, tol := h.Limit, h.Window, max(h.Tolerance, bound.DefaultTolerance)
	var over, under []bound.Violation
	switch h.Profile {
	case profile.SlidingLog:
		over = bound.SlidingLog(es, n, w, tol)
		under = bound.OverBlocking(answered, n, w, tol)
	case profile.FixedWindow:
		most := 2 * n
		if h.WindowAlign == profile.AlignFirstRequest {
			most = 2*n - 1
			over = bound.FirstWindow(es, n, w, tol)
		} else {
			over = bound.EpochWindows(es, n, w, tol)
		}
		_, burst := bound.Burst(es, most, w, tol)
		over = append(over, burst...)
		under = bound.OverBlocking(answered, n, w, tol)
	case profile.TokenBucket:
		// TB-1's arrival curve: at most B + R·Δt + 1 allowed in any interval.
		if tb, ok := h.Model.(model.TokenBucket); ok {
			over = bound.TokenBucket(es, tb.Burst, tb.Rate, tol)
		}
	}
	var vs []Violation
	for _, v := range over {
		vs = append(vs, boundViolation(ClassOversell, v))
	}
	for _, v := range under {
		vs = append(vs, boundViolation(ClassUndersell, v))
	}
	return vs
}
