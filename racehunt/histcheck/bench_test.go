package histcheck

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// benchPRD streams a correct PRD history of n requests over buckets
// buckets: bursts of 20 concurrent requests on 4 buckets (about 5
// overlapping requests per bucket), a quarter of them idempotent (replays
// included), a limit each bucket exhausts, and windows that pass during the
// run. With bad, one burst halfway is answered by a check-then-act server
// (every request reads the bucket before the burst) on a bucket of its own:
// 20 successes with one Remaining, a violation any checker must see.
func benchPRD(n, buckets int, bad bool, yield func(*Op)) {
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
// moves 10 ms a burst (bursts do not overlap: decisions stay in clock
// order) and 5 s every 50 bursts or so. With bad, one burst halfway, on a key of its own, reads the key's state as it was before the
// burst for every request (check-then-act): 20 allowed at once.
func benchModel(limit int, m model.Model, n, keys int, bad bool, yield func(*Op)) {
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
		now = now.Add(10 * time.Millisecond)
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
				Ex: &httpclient.Exchange{Method: http.MethodGet, Status: status, RespHeader: rlHeader(limit, d.Remaining, d.Reset), RespBody: body,
					Sent: time.Unix(0, r.send), Received: time.Unix(0, r.recv)}})
		}
		bad = bad && !race
		emit(ops, yield)
		i += len(ops)
	}
}

var benchN = flag.Int("racehunt.benchn", 0, "requests in each history of BenchmarkCheckHistory (0: each case's own size)")

// benchCase is one history of BenchmarkCheckHistory: its settings (a
// profile's model at limit 8 and a 10 s window; for token-bucket B = 8,
// R = 1/s; leaky-bucket B = 7, R = 1/s), whether it holds a race, and its
// size: 1M requests for every design (the sliding log's was 5,000 while
// StepOracle checked it, its state sets growing with every concurrent
// request; its zones hold them all: doc.go).
type benchCase struct {
	name string
	h    History
	bad  bool
	n    int // requests, unless -racehunt.benchn says otherwise
}

func (c benchCase) size() int {
	if *benchN > 0 {
		return *benchN
	}
	return c.n
}

// stream generates c's history of n requests over keys keys.
func (c benchCase) stream(n, keys int, yield func(*Op)) {
	if c.h.Model == nil {
		benchPRD(n, keys, c.bad, yield)
		return
	}
	benchModel(c.h.Limit, c.h.Model, n, keys, c.bad, yield)
}

func benchSettings(p profile.Name, align profile.Align, m model.Model) History {
	return History{Limit: 8, Window: 10 * time.Second, Profile: p, WindowAlign: align, Model: m}
}

var (
	benchPRDSettings = History{Limit: 8, Window: 10 * time.Second}
	benchSlidingLog  = benchSettings(profile.SlidingLog, "", model.SlidingLog{Limit: 8, Window: 10 * time.Second})
	benchCases       = []benchCase{
		{name: "prd", h: benchPRDSettings, n: 1_000_000},
		{name: "sliding-log", h: benchSlidingLog, n: 1_000_000},
		{name: "fixed-window", h: benchSettings(profile.FixedWindow, profile.AlignEpoch, model.Epoch{Limit: 8, Window: 10 * time.Second}), n: 1_000_000},
		{name: "token-bucket", h: benchSettings(profile.TokenBucket, "", model.TokenBucket{Burst: 8, Rate: 1}), n: 1_000_000},
		{name: "sliding-window-counter", h: benchSettings(profile.SlidingWindowCounter, profile.AlignEpoch, model.WindowCounter{Limit: 8, Window: 10 * time.Second}), n: 1_000_000},
		{name: "leaky-bucket", h: benchSettings(profile.LeakyBucket, "", model.LeakyBucket{Burst: 7, Rate: 1}), n: 1_000_000},
		{name: "prd-race", h: benchPRDSettings, bad: true, n: 1_000_000},
		{name: "sliding-log-race", h: benchSlidingLog, bad: true, n: 1_000_000},
	}
)

// benchHistory is c's history of n requests over keys keys, held whole.
func benchHistory(c benchCase, n, keys int) *History {
	h := c.h
	c.stream(n, keys, func(o *Op) { h.Ops = append(h.Ops, *o) })
	return &h
}

// checkBench checks h as RunAndCheck does and fails b when the verdict is
// not the one the case was built for.
func checkBench(b testing.TB, c benchCase, ch *Checker) {
	vs, res := ch.Violations(), ch.Linearizable(untimed).Result
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
			h := benchHistory(c, 600, 30)
			if len(h.Ops) != 600 {
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
			if len(seen) < 27 || ok == 0 || limited < len(h.Ops)/20 {
				t.Fatalf("keys %d, 200s %d, 429s %d", len(seen), ok, limited)
			}
			checkBench(t, c, CheckerOf(h))
		})
	}
}

// BenchmarkCheckHistory checks a recorded history of 1,000,000 requests
// over 1,000 keys (-racehunt.benchn for another size) as RunAndCheck does:
// the direct checks and porcupine. held/ checks a history held in memory
// (its generation not timed); streamed/ feeds the checker from the
// generator, so that the peak memory of its process is the checker's and
// one burst's (its time includes generating the requests: generate/ is the
// generator alone). BenchmarkCheck1M is the streamed one alone, whose
// figures doc.go gives.
func BenchmarkCheckHistory(b *testing.B) {
	for _, c := range benchCases {
		b.Run("held/"+c.name, func(b *testing.B) {
			h := benchHistory(c, c.size(), 1000)
			b.ReportAllocs()
			b.ReportMetric(float64(c.size()), "requests")
			for b.Loop() {
				checkBench(b, c, CheckerOf(h))
			}
		})
		b.Run("generate/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.stream(c.size(), 1000, func(*Op) {})
			}
		})
		b.Run("streamed/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(c.size()), "requests")
			for b.Loop() {
				h := c.h // settles its dialect afresh
				ch := NewChecker(&h)
				c.stream(c.size(), 1000, ch.Add)
				checkBench(b, c, ch)
			}
		})
	}
}

// BenchmarkCheck1M checks a streamed history of 1,000,000 requests over
// 1,000 keys of each design the race hunter models (-racehunt.benchn for
// another size) as the race hunter does after a load run: the checker fed
// op by op (each response read as it comes), then the direct checks and
// porcupine. The timer runs for the check alone (Violations and
// Linearizable once every op was read): generating and reading the
// requests is stream-s, its CPU seconds stream-cpu-s (the generation
// alone: BenchmarkCheckHistory/generate), the check's CPU seconds, all
// cores, check-cpu-s. Its peak RSS is the checker's and one burst's: `go
// test -c` then `/usr/bin/time -v ./histcheck.test -test.run '^$'
// -test.bench 'Check1M/<design>$' -test.benchtime 1x`; figures in doc.go.
func BenchmarkCheck1M(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(c.size()), "requests")
			var stream, streamCPU, checkCPU time.Duration
			for b.Loop() {
				b.StopTimer()
				t0, cpu0 := time.Now(), cpuTime(b)
				h := c.h
				ch := NewChecker(&h)
				c.stream(c.size(), 1000, ch.Add)
				ch.flush()
				cpu1 := cpuTime(b)
				stream, streamCPU = stream+time.Since(t0), streamCPU+cpu1-cpu0
				b.StartTimer()
				checkBench(b, c, ch)
				checkCPU += cpuTime(b) - cpu1
			}
			b.ReportMetric(stream.Seconds()/float64(b.N), "stream-s")
			b.ReportMetric(streamCPU.Seconds()/float64(b.N), "stream-cpu-s")
			b.ReportMetric(checkCPU.Seconds()/float64(b.N), "check-cpu-s")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPlantedRaceFoundInALongHistory: one check-then-act burst halfway
// through a streamed 100,000-request history over 1,000 keys is found by
// the direct checks and by porcupine, for the PRD, a design checked by
// StepOracle and the three checked on zones (BenchmarkCheck1M does the
// same at 1M).
func TestPlantedRaceFoundInALongHistory(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	for _, c := range []benchCase{
		{name: "prd-race", h: benchPRDSettings, bad: true},
		{name: "fixed-window-race", h: benchSettings(profile.FixedWindow, profile.AlignEpoch, model.Epoch{Limit: 8, Window: 10 * time.Second}), bad: true},
		{name: "token-bucket-race", h: benchSettings(profile.TokenBucket, "", model.TokenBucket{Burst: 8, Rate: 1}), bad: true},
		{name: "leaky-bucket-race", h: benchSettings(profile.LeakyBucket, "", model.LeakyBucket{Burst: 7, Rate: 1}), bad: true},
		{name: "sliding-log-race", h: benchSlidingLog, bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := c.h
			ch := NewChecker(&h)
			c.stream(n, 1000, ch.Add)
			checkBench(t, c, ch)
		})
	}
}
