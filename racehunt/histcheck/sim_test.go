package histcheck

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
)

// sim is an in-memory bucket server used to synthesise histories: correct,
// or with a defect switched on.
type sim struct {
	limit  int
	window time.Duration
	bugs   simBugs
	state  map[string]*simBucket
	cache  map[string]simCached
	ids    int
}

type simBugs struct {
	staleRead    bool // check-then-act: every op of a burst reads the burst's starting state
	replaySpends bool
	moveOn429    bool
}

type simBucket struct {
	rem   int
	reset int64
}

type simCached struct {
	body   string
	status int
	resp   []byte
}

func newSim(limit int, window time.Duration) *sim {
	return &sim{limit: limit, window: window, state: map[string]*simBucket{}, cache: map[string]simCached{}}
}

func rlHeader(limit, rem int, reset int64) http.Header {
	h := http.Header{}
	h.Set(dialect.HeaderLimit, strconv.Itoa(limit))
	h.Set(dialect.HeaderRemaining, strconv.Itoa(rem))
	h.Set(dialect.HeaderReset, strconv.FormatInt(reset, 10))
	return h
}

// apply handles op at server time now, reading bucket state from read (the
// live state, or a stale snapshot for staleRead).
func (s *sim) apply(o *Op, now time.Time, read simBucket) (status int, hdr http.Header, body []byte, write *simBucket) {
	b := read
	if b.reset == 0 || now.Unix() >= b.reset {
		b = simBucket{rem: s.limit, reset: now.Unix() + int64(s.window/time.Second)}
	}
	if o.IdemKey != "" {
		if c, ok := s.cache[o.IdemKey]; ok {
			if c.body == o.BodyHash {
				if s.bugs.replaySpends && b.rem > 0 {
					b.rem--
				}
				return c.status, rlHeader(s.limit, b.rem, b.reset), c.resp, &b
			}
			return http.StatusUnprocessableEntity, http.Header{}, []byte(`{"error":"idempotency_key_reused"}`), nil
		}
	}
	if b.rem <= 0 {
		if s.bugs.moveOn429 {
			b.reset = now.Unix() + int64(s.window/time.Second)
		}
		return http.StatusTooManyRequests, rlHeader(s.limit, 0, b.reset), []byte(`{"error":"rate_limited"}`), &b
	}
	b.rem--
	s.ids++
	resp := []byte(fmt.Sprintf(`{"ride_id":"r%d"}`, s.ids))
	if o.IdemKey != "" {
		s.cache[o.IdemKey] = simCached{body: o.BodyHash, status: http.StatusOK, resp: resp}
	}
	return http.StatusOK, rlHeader(s.limit, b.rem, b.reset), resp, &b
}

// synth builds a history: ops in bursts; each burst's ops overlap in real
// time (call at the burst start, return at its end) and are applied in a
// random order at server time now.
type synth struct {
	sim   *sim
	h     *History
	t     time.Time // monotonic-ish real time
	now   time.Time // server clock
	rng   *rand.Rand
	burst int
	// base is the index of h.Ops[0]: a streamed history drops the ops of
	// bursts already handed on (benchmarks).
	base int
}

func newSynth(limit int, window time.Duration, seed uint64) *synth {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &synth{
		sim: newSim(limit, window),
		h:   &History{Limit: limit, Window: window},
		t:   start, now: start,
		rng: rand.New(rand.NewPCG(seed, 1)),
	}
}

type synthReq struct {
	kind    Kind
	bucket  string
	key     string
	body    string
	unknown bool // the response is lost (it still takes effect)
}

func fresh(bucket string) synthReq { return synthReq{kind: Fresh, bucket: bucket} }
func keyed(bucket, key, body string) synthReq {
	return synthReq{kind: Keyed, bucket: bucket, key: key, body: body}
}

// run applies one burst of concurrent requests.
func (s *synth) run(reqs ...synthReq) []*Op {
	start := len(s.h.Ops)
	for _, r := range reqs {
		body := r.body
		if body == "" {
			body = fmt.Sprintf("body-%d", s.base+len(s.h.Ops))
		}
		o := Op{Index: s.base + len(s.h.Ops), Burst: s.burst, Req: Req{Kind: r.kind}, Bucket: r.bucket, IdemKey: r.key, BodyHash: body,
			ServerFrom: s.now, ServerTo: s.now,
			Ex: &httpclient.Exchange{Method: http.MethodPost, Sent: s.t, Received: s.t.Add(time.Millisecond)}}
		s.h.Ops = append(s.h.Ops, o)
	}
	s.burst++
	snapshot := map[string]simBucket{}
	for _, r := range reqs {
		if b := s.sim.state[r.bucket]; b != nil && s.sim.bugs.staleRead {
			snapshot[r.bucket] = *b
		}
	}
	order := s.rng.Perm(len(reqs))
	for _, i := range order {
		o := &s.h.Ops[start+i]
		read := simBucket{}
		if b := s.sim.state[o.Bucket]; b != nil {
			read = *b
		}
		if s.sim.bugs.staleRead {
			read = snapshot[o.Bucket]
		}
		st, hdr, body, write := s.sim.apply(o, s.now, read)
		if write != nil {
			w := *write
			s.sim.state[o.Bucket] = &w
		}
		if reqs[i].unknown {
			o.Ex.Err = fmt.Errorf("no response within 5s")
			continue
		}
		o.Ex.Status, o.Ex.RespHeader, o.Ex.RespBody = st, hdr, body
	}
	s.t = s.t.Add(2 * time.Millisecond)
	out := make([]*Op, len(reqs))
	for i := range reqs {
		out[i] = &s.h.Ops[start+i]
	}
	return out
}
