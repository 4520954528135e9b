package histcheck

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// TestCheckerGivesTheVerdictsOfTheWholeHistoryCheck: the Checker (keys
// checked apart, in parallel, from recs) finds exactly the violations and
// the linearizability result the checks of the whole history found before
// it (kept below as the oracle: oldCheck, oldLinearizable, as main had
// them after the dialect branch: the answer settled from the first answered
// op, every response read in it), on random small histories of every
// profile and dialect, correct or broken. The oracle checks a copy of the
// history of its own, so that each settles the dialect itself.
func TestCheckerGivesTheVerdictsOfTheWholeHistoryCheck(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var h *History
		if rapid.Bool().Draw(rt, "prd") {
			h = randomPRDHistory(rt)
		} else {
			h = randomProfileHistory(rt)
		}
		old := cloneHistory(h)
		c := CheckerOf(h)
		got, want := c.Violations(), oldCheck(old)
		if !reflect.DeepEqual(got, want) {
			for i := range h.Ops {
				rt.Log(h.Ops[i].String())
			}
			rt.Fatalf("violations:\n got  %v\n want %v", got, want)
		}
		if !reflect.DeepEqual(h.Answer, old.Answer) || !slices.Equal(h.Notes, old.Notes) {
			rt.Fatalf("answer settled as %+v (%q), want %+v (%q)", h.Answer, h.Notes, old.Answer, old.Notes)
		}
		for i := range h.Ops {
			if h.Ops[i].Ex != nil && !reflect.DeepEqual(h.Ops[i].Ex.Answer, old.Ops[i].Ex.Answer) {
				rt.Fatalf("op %d read as %+v, want %+v", i, h.Ops[i].Ex.Answer, old.Ops[i].Ex.Answer)
			}
		}
		// A status-only history leaves porcupine many states to try: a
		// search that times out on either side is no verdict to compare.
		gotL, wantL := c.Linearizable(5*time.Second).Result, oldLinearizable(old, 5*time.Second).Result
		if gotL != wantL && gotL != porcupine.Unknown && wantL != porcupine.Unknown {
			for i := range h.Ops {
				rt.Log(h.Ops[i].String())
			}
			rt.Fatalf("linearizable: got %v, want %v", gotL, wantL)
		}
	})
}

// randomPRDHistory is a run of the simulated PRD server, correct or with a
// defect, on 1–3 buckets: fresh, keyed, conflicting and lost requests.
func randomPRDHistory(rt *rapid.T) *History {
	s := newSynth(rapid.IntRange(1, 4).Draw(rt, "limit"), 3*time.Second, rapid.Uint64().Draw(rt, "seed"))
	s.sim.bugs = simBugs{staleRead: rapid.Bool().Draw(rt, "stale"), replaySpends: rapid.Bool().Draw(rt, "replay"), moveOn429: rapid.Bool().Draw(rt, "move")}
	buckets := []string{devA, devB, "dev:cccc"}[:rapid.IntRange(1, 3).Draw(rt, "buckets")]
	for b := rapid.IntRange(1, 4).Draw(rt, "bursts"); b > 0; b-- {
		if rapid.Bool().Draw(rt, "advance") {
			s.now = s.now.Add(time.Duration(rapid.IntRange(1, 4).Draw(rt, "secs")) * time.Second)
		}
		var reqs []synthReq
		for n := rapid.IntRange(1, 8).Draw(rt, "n"); n > 0; n-- {
			bucket := rapid.SampledFrom(buckets).Draw(rt, "bucket")
			g := bucket + "-k" + string(rune('0'+rapid.IntRange(0, 1).Draw(rt, "group")))
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 0:
				reqs = append(reqs, fresh(bucket))
			case 1:
				reqs = append(reqs, keyed(bucket, g, "b"))
			case 2:
				reqs = append(reqs, synthReq{kind: Conflict, bucket: bucket, key: g, body: "other"})
			case 3:
				r := fresh(bucket)
				r.unknown = true
				reqs = append(reqs, r)
			}
		}
		s.run(reqs...)
	}
	return s.h
}

// cloneHistory is a copy of h whose ops' exchanges are copies too.
func cloneHistory(h *History) *History {
	c := *h
	c.Ops = slices.Clone(h.Ops)
	c.Notes = slices.Clone(h.Notes)
	for i := range c.Ops {
		if ex := c.Ops[i].Ex; ex != nil {
			cp := *ex
			c.Ops[i].Ex = &cp
		}
	}
	return &c
}

// randomAnswer is how a random target answers (its dialect, the status and
// body of a refusal) and the settings a history of it is checked with:
// those, or auto.
func randomAnswer(rt *rapid.T) (written, checked dialect.Settings) {
	written = dialect.Settings{
		Dialect:       rapid.SampledFrom([]dialect.Dialect{dialect.XRateLimit, dialect.Fields, dialect.Dict, dialect.IETF, dialect.Status}).Draw(rt, "dialect"),
		LimitedStatus: rapid.SampledFrom([]int{0, http.StatusForbidden, http.StatusServiceUnavailable}).Draw(rt, "limited_status"),
		Body:          dialect.JSONBody("/error", "rate_limited"),
	}
	if written.Dialect == dialect.XRateLimit {
		written.ResetFormat = rapid.SampledFrom([]dialect.ResetFormat{dialect.ResetUnix, dialect.ResetDelta, dialect.ResetHTTPDate}).Draw(rt, "reset_format")
	}
	checked = written
	if rapid.Bool().Draw(rt, "auto") {
		checked.Dialect, checked.ResetFormat = dialect.Auto, dialect.ResetAuto
	}
	return written, checked
}

// randomProfileHistory is a run of a profile's model on 1–3 keys, each
// request decided inside its interval in time order and answered in a
// random dialect (randomAnswer), some responses then corrupted (status,
// Remaining, Reset, Retry-After, a refusal's body, the fields left out) or
// lost.
func randomProfileHistory(rt *rapid.T) *History {
	limit := rapid.IntRange(1, 3).Draw(rt, "limit")
	w := time.Duration(rapid.IntRange(1, 3).Draw(rt, "window")) * time.Second
	var h *History
	switch rapid.IntRange(0, 3).Draw(rt, "model") {
	case 0:
		h = &History{Profile: profile.SlidingLog, Model: model.SlidingLog{Limit: limit, Window: w}}
	case 1:
		h = &History{Profile: profile.FixedWindow, WindowAlign: profile.AlignEpoch, Model: model.Epoch{Limit: limit, Window: w}}
	case 2:
		h = &History{Profile: profile.FixedWindow, WindowAlign: profile.AlignFirstRequest, Model: model.PRD{Limit: limit, Window: w}}
	default:
		rate := rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(rt, "rate")
		h = &History{Profile: profile.TokenBucket, Model: model.TokenBucket{Burst: limit, Rate: rate}}
	}
	h.Limit, h.Window = limit, w
	written, checked := randomAnswer(rt)
	h.Answer = checked
	type req struct {
		key            string
		send, recv, at int64
	}
	keys := []string{"key:a", "key:b", "key:c"}[:rapid.IntRange(1, 3).Draw(rt, "keys")]
	reqs := make([]req, rapid.IntRange(1, 10).Draw(rt, "n"))
	for i := range reqs {
		send := sec(float64(rapid.IntRange(0, 8000).Draw(rt, "send_ms")) / 1000)
		lat := int64(rapid.IntRange(1, 1500).Draw(rt, "latency_ms")) * int64(time.Millisecond)
		reqs[i] = req{rapid.SampledFrom(keys).Draw(rt, "key"), send, send + lat, send + rapid.Int64Range(0, lat).Draw(rt, "at")}
	}
	slices.SortFunc(reqs, func(a, b req) int { return int(a.at - b.at) })
	states := map[string]model.State{}
	for i, r := range reqs {
		next, d := h.Model.Step(states[r.key], spendOne, time.Unix(0, r.at))
		states[r.key] = next
		status, rem, reset := http.StatusOK, d.Remaining, d.Reset
		if !d.Allowed {
			status = written.Status()
		}
		body := []byte(`{}`)
		if status != http.StatusOK {
			body = []byte(`{"error":"rate_limited"}`)
		}
		hdr := http.Header{}
		corrupt := rapid.IntRange(0, 13).Draw(rt, "corrupt")
		switch corrupt {
		case 0:
			status = http.StatusOK + written.Status() - status
		case 1:
			rem = (rem + 1) % (limit + 1)
		case 2:
			reset += 2
		case 3:
			body = []byte(`{"error":"slow down"}`)
		case 4:
			hdr.Set(dialect.HeaderRetryAfter, "soon")
		case 5:
			status = http.StatusTooManyRequests
		}
		if !d.Allowed && corrupt != 4 {
			hdr.Set(dialect.HeaderRetryAfter, "1")
		}
		if corrupt != 6 {
			q := dialect.Quota{Limit: int64(limit), Remaining: int64(rem), Reset: time.Unix(reset, 0), Window: w, Now: time.Unix(0, r.at)}
			if err := written.Write(hdr, q); err != nil {
				rt.Fatal(err)
			}
		}
		ex := &httpclient.Exchange{Method: http.MethodGet, Status: status, RespHeader: hdr,
			RespBody: body, Sent: time.Unix(0, r.send), Received: time.Unix(0, r.recv)}
		if rapid.IntRange(0, 9).Draw(rt, "lost") == 0 {
			ex.Err = errors.New("no response")
		}
		h.Ops = append(h.Ops, Op{Index: i, Req: Req{Kind: Fresh}, Bucket: r.key, Ex: ex,
			ServerFrom: time.Unix(0, r.send), ServerTo: time.Unix(0, r.recv)})
	}
	return h
}

// The checks of the whole history before Checker, the oracle above.

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

func oldHashState(s any) uint64 {
	st := s.(bucketState)
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%d|%s", st.Rem, st.ResetLo, st.ResetHi, st.Cache)
	return h.Sum64()
}

func oldModel(h *History) porcupine.Model {
	if !profile.IsPRD(h.Profile) && h.Model != nil {
		return oldStepModel(h)
	}
	m := bucketModel{prd: model.PRD{Limit: h.Limit, Window: h.Window}, tol: int64(h.Tolerance)}
	nm := porcupine.NondeterministicModel{
		Partition:         partitionByBucket,
		Init:              func() []any { return []any{bucketState{}} },
		Step:              m.step,
		Equal:             func(a, b any) bool { return a.(bucketState) == b.(bucketState) },
		Hash:              oldHashState,
		DescribeOperation: describeOp,
		DescribeState: func(state any) string {
			st := state.(bucketState)
			if st.ResetLo == 0 {
				return "no window"
			}
			keys := 0
			if st.Cache != "" {
				keys = strings.Count(st.Cache, "\n") + 1
			}
			return fmt.Sprintf("rem=%d reset=%d..%d keys=%d", st.Rem, st.ResetLo, st.ResetHi, keys)
		},
		DescribeOperationMetadata: func(info any) string { return shortBucket(info.(string)) },
	}
	return nm.ToModel()
}

func oldOperations(h *History) []porcupine.Operation {
	if len(h.Ops) == 0 {
		return nil
	}
	base := h.Ops[0].Ex.Sent
	for i := range h.Ops {
		if h.Ops[i].Ex.Sent.Before(base) {
			base = h.Ops[i].Ex.Sent
		}
	}
	ops := make([]porcupine.Operation, 0, len(h.Ops))
	lanes := map[string][]int64{} // bucket → last return per lane
	order := make([]int, len(h.Ops))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return h.Ops[order[a]].Ex.Sent.Before(h.Ops[order[b]].Ex.Sent) })
	hints := map[string][]int64{}
	if !profile.IsPRD(h.Profile) {
		hints = oldPlacementHints(h)
	}
	for _, i := range order {
		o := &h.Ops[i]
		in := opInput{Index: o.Index, Kind: o.Req.Kind, Key: o.IdemKey, Body: o.BodyHash, From: o.ServerFrom.UnixNano(), To: o.ServerTo.UnixNano(), Hints: hints[o.Bucket]}
		out := oldOutputOf(o)
		call := int64(o.Ex.Sent.Sub(base))
		ret := int64(math.MaxInt64 / 2)
		if !o.Unknown() {
			ret = int64(o.Ex.Received.Sub(base))
			if ret <= call {
				ret = call + 1
			}
		}
		// Visualisation lanes: the first lane of the bucket free at call.
		ls := lanes[o.Bucket]
		lane := -1
		for j, last := range ls {
			if last < call {
				lane = j
				break
			}
		}
		if lane < 0 {
			lane = len(ls)
			ls = append(ls, 0)
		}
		ls[lane] = ret
		lanes[o.Bucket] = ls
		ops = append(ops, porcupine.Operation{ClientId: lane, Input: in, Call: call, Output: out, Return: ret, Metadata: o.Bucket})
	}
	return ops
}

func oldOutputOf(o *Op) opOutput {
	if o.Unknown() {
		return opOutput{Unknown: true}
	}
	out := opOutput{Status: o.Ex.Status, Resp: HashBytes(o.Ex.RespBody)}
	switch o.Ex.Status {
	case http.StatusOK, http.StatusTooManyRequests, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooEarly:
	default:
		// 5xx and the like: the op may or may not have taken effect
		// (the direct checks report the status itself).
		return opOutput{Unknown: true}
	}
	if obs := o.Ex.Observe(); obs.Err == nil && obs.Has(dialect.FieldRemaining) && obs.Has(dialect.FieldReset) {
		out.HasHeaders, out.Rem, out.Reset = true, int(obs.Remaining), obs.Reset.Unix()
	}
	return out
}

func oldLinearizable(h *History, timeout time.Duration) LinearResult {
	model := oldModel(h)
	res, info := porcupine.CheckOperationsVerbose(model, oldOperations(h), timeout)
	return LinearResult{Result: res, Info: info, Model: model}
}

func oldPlacementHints(h *History) map[string][]int64 {
	out := map[string][]int64{}
	tol, w, ms := int64(h.Tolerance), int64(h.Window), int64(time.Millisecond)
	for i := range h.Ops {
		o := &h.Ops[i]
		for _, end := range []int64{o.ServerFrom.UnixNano() - tol, o.ServerTo.UnixNano() + tol} {
			for _, shift := range []int64{-w, 0, w} {
				out[o.Bucket] = append(out[o.Bucket], end+shift, end+shift+ms)
			}
		}
	}
	for k, ts := range out {
		slices.Sort(ts)
		out[k] = slices.Compact(ts)
	}
	return out
}

func oldHashKeyState(state any) uint64 {
	s := state.(keyState)
	h := fnv.New64a()
	var b [8 * 4]byte
	for i, v := range []int64{int64(s.M.Remaining), s.M.Reset, s.T, int64(len(s.M.Log))} {
		for j := range 8 {
			b[8*i+j] = byte(v >> (8 * j))
		}
	}
	_, _ = h.Write(b[:])
	_, _ = h.Write([]byte(s.M.Log))
	return h.Sum64()
}

func oldStepModel(h *History) porcupine.Model {
	memo := &stepMemo{o: StepOracle{Model: h.Model, Tol: h.Tolerance, ResetSlack: 1}, m: map[memoKey][]any{}}
	nm := porcupine.NondeterministicModel{
		Partition:         partitionByBucket,
		Init:              func() []any { return []any{keyState{}} },
		Step:              memo.step,
		Equal:             func(a, b any) bool { return a.(keyState) == b.(keyState) },
		Hash:              oldHashKeyState,
		DescribeOperation: describeOp,
		DescribeState: func(state any) string {
			st := state.(keyState)
			if !st.M.Found {
				return "no state"
			}
			s := fmt.Sprintf("rem=%d reset=%d", st.M.Remaining, st.M.Reset)
			if st.M.Log != "" {
				s += fmt.Sprintf(" log=%d", len(model.DecodeLog(st.M.Log)))
			}
			return s + " at " + time.Unix(0, st.T).UTC().Format("15:04:05.000")
		},
		DescribeOperationMetadata: func(info any) string { return shortBucket(info.(string)) },
	}
	return nm.ToModel()
}
