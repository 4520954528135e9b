package histcheck

import (
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// checkKeyedResponse is Check of one response for a profile other than the
// PRD: 200 or LIMITED_STATUS; the rate-limit fields of the target's dialect
// in range, unless it is status; a refusal's Retry-After per RFC 9110, its
// body per LIMITED_BODY and Remaining 0 — header and body findings each
// their own violation. Each key's history is then checked against the
// profile's bounds (checkBounds).
func checkKeyedResponse(h *History, o *Op, rd *reading) []Violation {
	if o.Unknown() {
		return nil
	}
	bad := badOp(o)
	st := o.Ex.Status
	refused := h.Answer.Refused(st)
	if st != http.StatusOK && !refused {
		return bad(ClassStatus, "HTTP %d for a well-formed %s request", st, o.Req.Kind)
	}
	ob := rd.ob
	var vs []Violation
	if ob.Dialect != dialect.Status {
		vs = append(vs, checkHeaders(h, o, rd, bad)...)
	}
	if refused && ob.RetryAfterErr != nil {
		vs = append(vs, bad(ClassHeaders, "%v", ob.RetryAfterErr)...)
	}
	if refused && ob.BodyErr != nil {
		vs = append(vs, bad(ClassLimited, "%v (LIMITED_BODY)", ob.BodyErr)...)
	}
	if refused && ob.Dialect != dialect.Status && ob.Err == nil && ob.Remaining != 0 {
		vs = append(vs, bad(ClassLimited, "refusal with Remaining=%d", ob.Remaining)...)
	}
	return vs
}

// checkBounds runs the bounds of h's profile (its registry entry's
// Bounds, package bound's checks) on the answered requests of key
// (decision times in [ServerFrom, ServerTo] ± Tolerance): SL-1, FW-1,
// FW-2, TB-1, SWC-1, SWC-2 and the leaky bucket's admissions as oversell,
// SL-4 as undersell. A key with a request left unanswered is not checked
// for over-blocking: that request may have been allowed.
func checkBounds(h *History, key string, rs []rec) []Violation {
	var es []bound.Event
	unknown := false
	for i := range rs {
		r := &rs[i]
		if r.unknown() {
			unknown = true
			continue
		}
		if r.status == http.StatusOK || h.Answer.Refused(int(r.status)) {
			es = append(es, bound.Event{ID: int(r.index), Key: key, Send: r.from, Recv: r.to, Allowed: r.status == http.StatusOK})
		}
	}
	// profiles.md adds 1 s for the server's clock granularity, also on the
	// fake clock's exact times: designs keep whole seconds (a window opened
	// at 12.5 s by the first request ends at 15 s, not 15.5 s). The
	// linearizability check holds the model's exact decisions.
	over, under := profile.Of(h.Profile).Bounds(profile.Answered{Events: es, Complete: !unknown, Limit: h.Limit, Window: h.Window,
		Align: h.WindowAlign, Tolerance: max(h.Tolerance, bound.DefaultTolerance), Model: design(h.Model)})
	if h.penalized() {
		// A penalty refuses what the design would allow (PN-1): refusals
		// are the oracle's to judge, the design's bounds only cap what is
		// allowed.
		under = nil
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

func boundViolation(c Class, v bound.Violation) Violation {
	ops := make([]int, len(v.Events))
	for i, e := range v.Events {
		ops[i] = e.ID
	}
	return Violation{Class: c, Bucket: v.Key, Ops: ops, Detail: fmt.Sprintf("%s: %s: %s", v.Clause, v.Bound, v.Detail)}
}
