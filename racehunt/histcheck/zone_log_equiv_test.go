package histcheck

import (
	"cmp"
	"errors"
	"net/http"
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

// randomLogHistory is a run of a sliding log (limit 1–3, window 1–3 s) on
// 1–2 keys: each request in flight 1–1500 ms (or sent as an earlier
// one's entry leaves, in flight 0–3 ms), decided by the model at a
// random time inside its interval, in the order of those times; in a
// racing history now and then from its key's state before the previous
// request (a check-then-act race: both allowed where one should be, its
// write losing the other's entry), in a corrupted one some responses then
// corrupted (Remaining, Reset, the status); some responses lost.
func randomLogHistory(rt *rapid.T) *History {
	limit := rapid.IntRange(1, 3).Draw(rt, "limit")
	w := time.Duration(rapid.IntRange(1, 3).Draw(rt, "window")) * time.Second
	h := &History{Profile: profile.SlidingLog, Model: model.SlidingLog{Limit: limit, Window: w}, Limit: limit, Window: w,
		Answer: dialect.Settings{Dialect: dialect.XRateLimit}}
	type req struct {
		key            string
		send, recv, at int64
	}
	keys := []string{"key:a", "key:b"}[:rapid.IntRange(1, 2).Draw(rt, "keys")]
	reqs := make([]req, rapid.IntRange(1, 12).Draw(rt, "n"))
	for i := range reqs {
		send := sec(float64(rapid.IntRange(0, 6000).Draw(rt, "send_ms")) / 1000)
		lat := int64(rapid.IntRange(1, 1500).Draw(rt, "latency_ms")) * int64(time.Millisecond)
		if i > 0 && rapid.IntRange(0, 2).Draw(rt, "edge") == 0 {
			// Sent as an earlier request's entry leaves, to a few ms, and
			// answered within a few.
			ms := int64(time.Millisecond)
			send = reqs[rapid.IntRange(0, i-1).Draw(rt, "earlier")].at/ms*ms + int64(w) + int64(rapid.IntRange(-2, 2).Draw(rt, "off"))*ms
			lat = int64(rapid.IntRange(0, 3).Draw(rt, "edge_latency_ms")) * ms
		}
		reqs[i] = req{rapid.SampledFrom(keys).Draw(rt, "key"), send, send + lat, send + rapid.Int64Range(0, lat).Draw(rt, "at")}
	}
	slices.SortFunc(reqs, func(a, b req) int { return cmp.Compare(a.at, b.at) })
	races, corrupts := rapid.Bool().Draw(rt, "races"), rapid.Bool().Draw(rt, "corrupts")
	states, before := map[string]model.State{}, map[string]model.State{}
	for i, r := range reqs {
		read := states[r.key]
		if races && rapid.IntRange(0, 3).Draw(rt, "race") == 0 {
			read = before[r.key]
		}
		next, d := h.Model.Step(read, spendOne, time.Unix(0, r.at))
		before[r.key], states[r.key] = states[r.key], next
		status, rem, reset := http.StatusOK, d.Remaining, d.Reset
		if !d.Allowed {
			status = http.StatusTooManyRequests
		}
		corrupt := -1
		if corrupts {
			corrupt = rapid.IntRange(0, 11).Draw(rt, "corrupt")
		}
		switch corrupt {
		case 0:
			rem = (rem + 1) % (limit + 1)
		case 1:
			reset += int64(rapid.SampledFrom([]int{-2, 2}).Draw(rt, "dreset"))
		case 2:
			status = http.StatusOK + http.StatusTooManyRequests - status
		}
		ex := &httpclient.Exchange{Method: http.MethodGet, Status: status, RespHeader: rlHeader(limit, rem, reset),
			RespBody: []byte(`{}`), Sent: time.Unix(0, r.send), Received: time.Unix(0, r.recv)}
		if rapid.IntRange(0, 7).Draw(rt, "lost") == 0 {
			ex.Err = errors.New("no response")
		}
		h.Ops = append(h.Ops, Op{Index: i, Req: Req{Kind: Fresh}, Bucket: r.key, Ex: ex,
			ServerFrom: time.Unix(0, r.send), ServerTo: time.Unix(0, r.recv)})
	}
	return h
}

// TestLogZonesGiveTheStepOraclesVerdicts: porcupine finds a key's history
// linearizable on the sliding log's zones exactly when it does on
// StepOracle's placements (with their hints, as before the zones), on
// random histories of correct, racing, corrupted and lost responses. A
// search that times out on either side is no verdict to compare.
func TestLogZonesGiveTheStepOraclesVerdicts(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		h := randomLogHistory(rt)
		if by, _ := oracleOf(h); by != byZones {
			rt.Fatalf("the sliding log is checked by %v, not on zones", by)
		}
		c := CheckerOf(h)
		c.flush()
		for k := range c.keys {
			ops := c.operations(k)
			zones := porcupine.CheckOperationsTimeout(Model(h), ops, 5*time.Second)
			hints := placementHints(h, c.recs[k])
			for i := range ops {
				in := ops[i].Input.(opInput)
				in.Hints = hints
				ops[i].Input = in
			}
			steps := porcupine.CheckOperationsTimeout(stepModel(h), ops, 5*time.Second)
			if zones != steps && zones != porcupine.Unknown && steps != porcupine.Unknown {
				for i := range h.Ops {
					rt.Log(h.Ops[i].String())
				}
				rt.Fatalf("key %s: zones %v, StepOracle %v", c.keys[k], zones, steps)
			}
		}
	})
}
