package histcheck

import (
	"errors"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// TestCheckerGivesTheVerdictsOfTheWholeHistoryCheck: the Checker (keys
// checked apart, in parallel, from recs) finds exactly the violations and
// the linearizability result the checks of the whole history found before
// it (kept in oldcheck_test.go as the oracle: oldCheck, oldLinearizable, as main had
// them after the dialect branch: the answer settled from the first answered
// op, every response read in it), on random small histories of every
// profile and dialect, correct or broken. The oracle checks a copy of the
// history of its own, so that each settles the dialect itself. For the
// token and leaky buckets and the sliding log the oracle is StepOracle's
// placements and the Checker's the zones: their verdicts agree (the zones
// would accept what only a placement between StepOracle's tries explains;
// none of these histories needs one). The old direct checks predate the
// leaky bucket's bounds: for it only the linearizability verdicts are
// compared.
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
		if h.Profile == profile.LeakyBucket {
			got, want = nil, nil
		}
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
		gotL, wantL := c.Linearizable(untimed).Result, oldLinearizable(old, untimed).Result
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
	switch rapid.IntRange(0, 4).Draw(rt, "model") {
	case 0:
		h = &History{Profile: profile.SlidingLog, Model: model.SlidingLog{Limit: limit, Window: w}}
	case 1:
		h = &History{Profile: profile.FixedWindow, WindowAlign: profile.AlignEpoch, Model: model.Epoch{Limit: limit, Window: w}}
	case 2:
		h = &History{Profile: profile.FixedWindow, WindowAlign: profile.AlignFirstRequest, Model: model.PRD{Limit: limit, Window: w}}
	case 3:
		rate := rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(rt, "rate")
		h = &History{Profile: profile.TokenBucket, Model: model.TokenBucket{Burst: limit, Rate: rate}}
	default:
		rate := rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(rt, "rate")
		h = &History{Profile: profile.LeakyBucket, Model: model.LeakyBucket{Burst: limit - 1, Rate: rate}}
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
