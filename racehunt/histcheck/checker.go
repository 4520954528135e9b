package histcheck

import (
	"bytes"
	"hash/maphash"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// Checker checks a history fed to it op by op, so that a long run's history
// need not be held whole: Add checks the op's response, read in the
// target's dialect (History.Answer, what it leaves to auto settled from the
// first answered op), and keeps of it a rec (a few integers) filed under
// its key. Violations (the direct checks)
// and Linearizable (porcupine) then check the keys in parallel on all
// cores, each key on its own: one key's records, porcupine operations and
// memo are alive per core at a time.
type Checker struct {
	h *History // the settings; its Ops are not read
	// settled: h.Answer is final; until then added ops wait in batch.
	settled bool
	keyOf   map[string]int
	keys    []string
	recs    [][]rec // per key, in the order added
	// names interns idempotency keys and body hashes (rec.idem, rec.body).
	nameOf  map[string]int32
	names   []string
	vs      []Violation // of single responses, in the order added
	base    time.Time   // the first send time: rec.sent and rec.recv count from it
	hasBase bool
	minSent int64
	seed    maphash.Seed
	// batch collects added ops; a full batch is read on another core
	// (pending, oldest first) and filed in order.
	batch   []Op
	pending []*readBatch
}

// readBatch is a batch of ops being read: their responses checked and
// their recs made, keys and names not yet filed.
type readBatch struct {
	done chan struct{}
	base time.Time // Checker.base when the batch was handed on
	ops  []Op
	recs []rec
	vs   []Violation
}

const batchSize = 1024

// rec is what the checks keep of one op.
type rec struct {
	index      int32
	kind       Kind
	status     int32 // 0: unknown
	hasRL      bool  // the rate-limit headers parse
	fields     bool  // the answer carries Remaining and Reset (deviating or not)
	blank      bool  // the response body is only white space
	rem, reset int64
	sent, recv int64  // nanoseconds from Checker.base (monotonic when recorded)
	from, to   int64  // ServerFrom, ServerTo: unix nanoseconds
	idem, body int32  // interned IdemKey and BodyHash; -1 when the op has no key
	resp       uint64 // hash of the response body
	penalty    int64  // under penalties, a 429's penalty_until (0: no penalty marker)
}

func (r *rec) unknown() bool { return r.status == 0 }

// NewChecker starts checking a history with h's settings; h.Ops is not
// read (Add the ops). What h.Answer leaves to auto is settled from the
// first answered op added, in h.
func NewChecker(h *History) *Checker {
	return &Checker{h: h, settled: h.answerSettled(), keyOf: map[string]int{}, nameOf: map[string]int32{}, seed: maphash.MakeSeed()}
}

// CheckerOf is a Checker fed h's ops.
func CheckerOf(h *History) *Checker {
	c := NewChecker(h)
	for i := range h.Ops {
		c.Add(&h.Ops[i])
	}
	return c
}

// Add checks o's response and files o under its key, on another core
// while the next ops are added. o is copied, its Exchange is kept until
// then and read with the history's settings (Exchange.Answer is set).
// Until an answered op settles the dialect, ops wait unread.
func (c *Checker) Add(o *Op) {
	if !c.hasBase && o.Ex != nil {
		c.base, c.hasBase = o.Ex.Sent, true
	}
	if !c.settled {
		c.settled = c.h.answerFrom(o)
	}
	c.batch = append(c.batch, *o)
	if len(c.batch) < batchSize || !c.settled {
		return
	}
	b := &readBatch{done: make(chan struct{}), base: c.base, ops: c.batch}
	c.batch = make([]Op, 0, batchSize)
	go c.read(b)
	c.pending = append(c.pending, b)
	for len(c.pending) > 2*runtime.GOMAXPROCS(0) {
		c.file()
	}
}

// read checks the responses of b's ops and makes their recs.
func (c *Checker) read(b *readBatch) {
	defer close(b.done)
	b.recs = make([]rec, len(b.ops))
	for i := range b.ops {
		o := &b.ops[i]
		if o.Ex != nil {
			o.Ex.Answer = c.h.Answer
		}
		rd := readOf(o)
		if profile.IsPRD(c.h.Profile) {
			b.vs = append(b.vs, checkResponse(c.h, o, &rd)...)
		} else {
			b.vs = append(b.vs, checkKeyedResponse(c.h, o, &rd)...)
		}
		r := rec{index: int32(o.Index), kind: o.Req.Kind, idem: -1, body: -1, from: o.ServerFrom.UnixNano(), to: o.ServerTo.UnixNano()}
		if o.Ex != nil {
			r.sent, r.recv = int64(o.Ex.Sent.Sub(b.base)), int64(o.Ex.Received.Sub(b.base))
		}
		if !o.Unknown() {
			r.status = int32(o.Ex.Status)
			r.hasRL, r.rem, r.reset = rd.err == nil, rd.rl.Remaining, rd.rl.Reset
			r.fields = rd.ob.Err == nil && rd.ob.Has(dialect.FieldRemaining) && rd.ob.Has(dialect.FieldReset)
			r.resp = maphash.Bytes(c.seed, o.Ex.RespBody)
			r.blank = len(bytes.TrimSpace(o.Ex.RespBody)) == 0
			if c.h.penalized() && c.h.Answer.Refused(o.Ex.Status) {
				if active, until := dialect.PenaltyOf(o.Ex.RespBody); active {
					r.penalty = max(until, 1)
				}
			}
		}
		b.recs[i] = r
	}
}

// file waits for the oldest pending batch and files its recs under their
// keys.
func (c *Checker) file() {
	b := c.pending[0]
	c.pending = c.pending[1:]
	<-b.done
	c.vs = append(c.vs, b.vs...)
	for i := range b.ops {
		o, r := &b.ops[i], b.recs[i]
		c.minSent = min(c.minSent, r.sent)
		if o.IdemKey != "" {
			r.idem, r.body = c.intern(o.IdemKey), c.intern(o.BodyHash)
		}
		k, ok := c.keyOf[o.Bucket]
		if !ok {
			k = len(c.keys)
			c.keyOf[o.Bucket] = k
			c.keys = append(c.keys, o.Bucket)
			c.recs = append(c.recs, nil)
		}
		c.recs[k] = append(c.recs[k], r)
	}
}

// flush reads and files every op added; with no op answered, as
// h.Answer stands.
func (c *Checker) flush() {
	c.settled = true
	if len(c.batch) > 0 {
		b := &readBatch{done: make(chan struct{}), base: c.base, ops: c.batch}
		c.batch = nil
		go c.read(b)
		c.pending = append(c.pending, b)
	}
	for len(c.pending) > 0 {
		c.file()
	}
}

func (c *Checker) intern(s string) int32 {
	i, ok := c.nameOf[s]
	if !ok {
		i = int32(len(c.names))
		c.nameOf[s] = i
		c.names = append(c.names, s)
	}
	return i
}

// eachKey runs f on every key, on all cores.
func (c *Checker) eachKey(f func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(c.keys)) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < len(c.keys); k = int(next.Add(1) - 1) {
				f(k)
			}
		})
	}
	wg.Wait()
}

// Violations are the direct checks' findings: the responses' (Add), then
// each key's (checkBucket for the PRD, checkBounds for another profile),
// ordered by key and class.
func (c *Checker) Violations() []Violation {
	c.flush()
	per := make([][]Violation, len(c.keys))
	c.eachKey(func(k int) {
		if profile.IsPRD(c.h.Profile) {
			per[k] = checkBucket(c.h, c.keys[k], c.recs[k])
		} else {
			per[k] = checkBounds(c.h, c.keys[k], c.recs[k])
		}
	})
	vs := append([]Violation(nil), c.vs...)
	for _, p := range per {
		vs = append(vs, p...)
	}
	sort.SliceStable(vs, func(i, j int) bool {
		if vs[i].Bucket != vs[j].Bucket {
			return vs[i].Bucket < vs[j].Bucket
		}
		return vs[i].Class < vs[j].Class
	})
	return vs
}

// Linearizable checks each key's history against the sequential model
// (Model), keys in parallel, all within timeout (none when 0); porcupine
// runs without its linearization record, and again with it on the keys it
// found illegal, for the visualisation. A key that timed out makes the
// result porcupine.Unknown (not a violation), unless another is Illegal.
func (c *Checker) Linearizable(timeout time.Duration) LinearResult {
	c.flush()
	deadline := time.Now().Add(timeout)
	res := make([]porcupine.CheckResult, len(c.keys))
	var illegal atomic.Bool
	c.eachKey(func(k int) {
		left := time.Until(deadline)
		if timeout <= 0 {
			left = 0
		}
		if illegal.Load() || (timeout > 0 && left <= 0) {
			res[k] = porcupine.Unknown
			return
		}
		res[k] = porcupine.CheckOperationsTimeout(Model(c.h), c.operations(k), left)
		if res[k] == porcupine.Illegal {
			illegal.Store(true)
		}
	})
	out := LinearResult{Result: porcupine.Ok, Model: Model(c.h)}
	var bad []porcupine.Operation
	for k, r := range res {
		switch r {
		case porcupine.Illegal:
			bad = append(bad, c.operations(k)...)
		case porcupine.Unknown:
			out.Result = porcupine.Unknown
		}
	}
	if len(bad) > 0 {
		out.Result = porcupine.Illegal
		_, out.Info = porcupine.CheckOperationsVerbose(out.Model, bad, timeout)
	}
	return out
}

// operations are key k's porcupine operations, by send time: call and
// return are the monotonic send and receive times; an op without a
// response returns "never" (after everything) with an unknown output.
func (c *Checker) operations(k int) []porcupine.Operation {
	rs := c.recs[k]
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rs[order[a]].sent < rs[order[b]].sent })
	var hints []int64
	if by, _ := oracleOf(c.h); by == byStepOracle {
		hints = placementHints(c.h, rs)
	}
	bucket := c.keys[k]
	ops := make([]porcupine.Operation, 0, len(rs))
	var lanes []int64 // last return per lane
	for _, i := range order {
		r := &rs[i]
		in := opInput{Index: int(r.index), Kind: r.kind, From: r.from, To: r.to, Hints: hints}
		if r.idem >= 0 {
			in.Key, in.Body = c.names[r.idem], c.names[r.body]
		}
		call := r.sent - c.minSent
		ret := int64(1<<63-1) / 2
		if !r.unknown() {
			ret = max(r.recv-c.minSent, call+1)
		}
		// Visualisation lanes: the first lane of the bucket free at call.
		lane := -1
		for j, last := range lanes {
			if last < call {
				lane = j
				break
			}
		}
		if lane < 0 {
			lane = len(lanes)
			lanes = append(lanes, 0)
		}
		lanes[lane] = ret
		out := outputOf(r)
		out.Penalties = c.h.penalized()
		ops = append(ops, porcupine.Operation{ClientId: lane, Input: in, Call: call, Output: out, Return: ret, Metadata: bucket})
	}
	return ops
}

func outputOf(r *rec) opOutput {
	switch r.status {
	case http.StatusOK, http.StatusTooManyRequests, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooEarly:
	default:
		// Unknown, 5xx and the like: the op may or may not have taken
		// effect (the direct checks report the status itself).
		return opOutput{Unknown: true}
	}
	// Only fields the answer carries are compared: under DIALECT=status
	// (or a dialect without Remaining and Reset) a 200 says allowed and
	// nothing more; an absent Remaining is not a Remaining of 0.
	out := opOutput{Status: int(r.status), Resp: strconv.FormatUint(r.resp, 16)}
	if r.fields {
		out.HasHeaders, out.Rem, out.Reset = true, int(r.rem), r.reset
	}
	out.PenaltyUntil = r.penalty
	return out
}
