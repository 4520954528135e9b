package racehunt

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// benchPRD streams a correct PRD history of n requests over buckets
// buckets: bursts of 20 concurrent requests on 4 buckets (about 5
// overlapping requests per bucket), a quarter of them idempotent (replays
// included), a limit each bucket exhausts, and windows that pass during the
// run. With bad, one burst halfway is answered by a check-then-act server
// (every request reads the bucket before the burst) on a bucket of its own:
// 20 successes with one Remaining, a violation any checker must see.
func benchPRD(n, buckets int, bad bool, yield func(*Op)) *History {
	s := newSynth(8, 10*time.Second, 42)
	rng := rand.New(rand.NewPCG(7, 7))
	for s.base+len(s.h.Ops) < n {
		s.base += len(s.h.Ops)
		s.h.Ops = s.h.Ops[:0]
		if rng.IntN(50) == 0 {
			s.now = s.now.Add(5 * time.Second)
		}
		var reqs []synthReq
		if bad && s.base >= n/2 {
			bad = false
			for range min(20, n-s.base) {
				reqs = append(reqs, fresh("dev:race"))
			}
			s.sim.bugs.staleRead = true
			s.run(reqs...)
			s.sim.bugs.staleRead = false
			emit(s.h.Ops, yield)
			continue
		}
		hot := rng.IntN(buckets) // 4 buckets per burst: ~5 overlapping requests each
		for i := 0; i < 20 && s.base+len(reqs) < n; i++ {
			b := fmt.Sprintf("dev:%04d", (hot+rng.IntN(4))%buckets)
			if rng.IntN(4) == 0 {
				reqs = append(reqs, keyed(b, fmt.Sprintf("%s-k%d", b, rng.IntN(5)), "body"))
				continue
			}
			reqs = append(reqs, fresh(b))
		}
		s.run(reqs...)
		emit(s.h.Ops, yield)
	}
	s.h.Ops = nil
	return s.h
}

func emit(ops []Op, yield func(*Op)) {
	for i := range ops {
		yield(&ops[i])
	}
}

// benchModel streams a correct run of m, the design of profile p: n
// requests over keys keys in bursts of 20 concurrent requests on 4
// neighbouring keys, each in flight 1–5 ms and decided at a random time
// inside that interval, each key's requests decided in time order; time
// moves 2 ms a burst and 5 s every 50 bursts or so. With bad, one burst
// halfway, on a key of its own, reads the key's state as it was before the
// burst for every request (check-then-act): 20 allowed at once.
func benchModel(p profile.Name, align profile.Align, limit int, m model.Model, n, keys int, bad bool, yield func(*Op)) *History {
	h := &History{Limit: limit, Window: 10 * time.Second, Profile: p, WindowAlign: align, Model: m}
	rng := rand.New(rand.NewPCG(7, 7))
	states := make([]model.State, keys+1) // the last: the racing key
	now := time.Unix(1_800_000_000, 0)
	type req struct {
		key            int
		send, recv, at int64
	}
	burst := make([]req, 0, 20)
	ops := make([]Op, 0, 20)
	for i := 0; i < n; {
		if rng.IntN(50) == 0 {
			now = now.Add(5 * time.Second)
		}
		now = now.Add(2 * time.Millisecond)
		burst = burst[:0]
		race := bad && i >= n/2
		hot := rng.IntN(keys)
		for j := 0; j < 20 && i+j < n; j++ {
			k := (hot + rng.IntN(4)) % keys
			if race {
				k = keys
			}
			send := now.UnixNano() + int64(rng.IntN(1000))*int64(time.Microsecond)
			recv := send + int64(1+rng.IntN(5))*int64(time.Millisecond)
			burst = append(burst, req{key: k, send: send, recv: recv, at: send + rng.Int64N(recv-send+1)})
		}
		before := states[keys]
		slices.SortStableFunc(burst, func(a, b req) int { return int(a.at - b.at) })
		ops = ops[:0]
		for _, r := range burst {
			st := states[r.key]
			if race {
				st = before
			}
			next, d := m.Step(st, spendOne, time.Unix(0, r.at))
			states[r.key] = next
			status, body := http.StatusOK, []byte(`{}`)
			if !d.Allowed {
				status, body = http.StatusTooManyRequests, []byte(`{"error":"rate_limited"}`)
			}
			ops = append(ops, Op{Index: i + len(ops), Req: Req{Kind: Fresh}, Bucket: fmt.Sprintf("key:%04d", r.key),
				ServerFrom: time.Unix(0, r.send), ServerTo: time.Unix(0, r.recv),
				Ex: &service.Exchange{Method: http.MethodGet, Status: status, RespHeader: rlHeader(limit, d.Remaining, d.Reset), RespBody: body,
					Sent: time.Unix(0, r.send), Received: time.Unix(0, r.recv)}})
		}
		bad = bad && !race
		emit(ops, yield)
		i += len(ops)
	}
	return h
}

var benchN = flag.Int("racehunt.benchn", 1_000_000, "requests in each history of BenchmarkCheckHistory")

// benchCase is one history of BenchmarkCheckHistory.
type benchCase struct {
	name   string
	stream func(n, keys int, yield func(*Op)) *History // returns the history without its ops
	bad    bool
}

var benchCases = []benchCase{
	{name: "prd", stream: func(n, keys int, y func(*Op)) *History { return benchPRD(n, keys, false, y) }},
	{name: "sliding-log", stream: func(n, keys int, y func(*Op)) *History {
		return benchModel(profile.SlidingLog, "", 8, model.SlidingLog{Limit: 8, Window: 10 * time.Second}, n, keys, false, y)
	}},
	{name: "fixed-window", stream: func(n, keys int, y func(*Op)) *History {
		return benchModel(profile.FixedWindow, profile.AlignEpoch, 8, model.Epoch{Limit: 8, Window: 10 * time.Second}, n, keys, false, y)
	}},
	{name: "token-bucket", stream: func(n, keys int, y func(*Op)) *History {
		return benchModel(profile.TokenBucket, "", 8, model.TokenBucket{Burst: 8, Rate: 1}, n, keys, false, y)
	}},
	{name: "prd-race", bad: true, stream: func(n, keys int, y func(*Op)) *History { return benchPRD(n, keys, true, y) }},
	{name: "sliding-log-race", bad: true, stream: func(n, keys int, y func(*Op)) *History {
		return benchModel(profile.SlidingLog, "", 8, model.SlidingLog{Limit: 8, Window: 10 * time.Second}, n, keys, true, y)
	}},
}

// benchHistory is c's history of n requests over keys keys, held whole.
func benchHistory(c benchCase, n, keys int) *History {
	var ops []Op
	h := c.stream(n, keys, func(o *Op) { ops = append(ops, *o) })
	h.Ops = ops
	return h
}

// checkBench checks h as RunAndCheck does and fails b when the verdict is
// not the one the case was built for.
func checkBench(b testing.TB, c benchCase, h *History) {
	ch := checkerOf(h)
	vs, res := ch.Violations(), ch.Linearizable(10*time.Minute).Result
	switch {
	case !c.bad && (len(vs) > 0 || res != porcupine.Ok):
		b.Fatalf("%s: correct history flagged: %d violations (%v), porcupine %v", c.name, len(vs), vs, res)
	case c.bad && (len(vs) == 0 || res != porcupine.Illegal):
		b.Fatalf("%s: race not seen: %d violations, porcupine %v", c.name, len(vs), res)
	}
}

func TestBenchHistoriesAreCleanAndBig(t *testing.T) {
	for _, c := range benchCases {
		t.Run(c.name, func(t *testing.T) {
			h := benchHistory(c, 2000, 100)
			if len(h.Ops) != 2000 {
				t.Fatalf("%d ops", len(h.Ops))
			}
			seen := map[string]bool{}
			var ok, limited int
			for i := range h.Ops {
				if h.Ops[i].Index != i {
					t.Fatalf("op %d has index %d", i, h.Ops[i].Index)
				}
				seen[h.Ops[i].Bucket] = true
				switch statusOf(&h.Ops[i]) {
				case 200:
					ok++
				case 429:
					limited++
				}
			}
			if len(seen) < 90 || ok == 0 || limited < len(h.Ops)/20 {
				t.Fatalf("keys %d, 200s %d, 429s %d", len(seen), ok, limited)
			}
			checkBench(t, c, h)
		})
	}
}

// BenchmarkCheckHistory checks a recorded history of 1,000,000 requests
// over 1,000 keys (-racehunt.benchn for another size), held in memory: the
// direct checks and porcupine, as RunAndCheck does.
func BenchmarkCheckHistory(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			h := benchHistory(c, *benchN, 1000)
			b.ReportAllocs()
			for b.Loop() {
				checkBench(b, c, h)
			}
		})
	}
}
