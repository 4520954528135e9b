package histcheck

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
)

// bucketState is the sequential model's state of one bucket. It is
// comparable: the idempotency cache is a sorted, encoded string.
type bucketState struct {
	Rem int
	// ResetLo..ResetHi is the window's Reset (unix seconds); 0/0 means no
	// window yet. Lo < Hi while an unanswered request opened the window.
	ResetLo, ResetHi int64
	Cache            string // lines "key\tbody\tstatus\tresp", sorted
}

type cached struct {
	body   string
	status int // -1: unknown
	resp   string
}

func (s bucketState) lookup(key string) (cached, bool) {
	for line := range strings.SplitSeq(s.Cache, "\n") {
		k, rest, _ := strings.Cut(line, "\t")
		if k != key {
			continue
		}
		body, rest, ok1 := strings.Cut(rest, "\t")
		status, resp, ok2 := strings.Cut(rest, "\t")
		if ok1 && ok2 && !strings.Contains(resp, "\t") {
			st, _ := strconv.Atoi(status)
			return cached{body: body, status: st, resp: resp}, true
		}
	}
	return cached{}, false
}

func (s bucketState) store(key string, c cached) bucketState {
	var lines []string
	for _, line := range strings.Split(s.Cache, "\n") {
		if line != "" && !strings.HasPrefix(line, key+"\t") {
			lines = append(lines, line)
		}
	}
	lines = append(lines, key+"\t"+c.body+"\t"+strconv.Itoa(c.status)+"\t"+c.resp)
	sort.Strings(lines)
	s.Cache = strings.Join(lines, "\n")
	return s
}

// opInput is a porcupine operation's input.
type opInput struct {
	Index    int
	Kind     Kind
	Key      string
	Body     string
	From, To int64 // server time bounds, unix nanoseconds
	// Hints are further decision times worth trying (StepOracle): times
	// derived from the intervals of the key's other requests, ascending.
	Hints []int64
}

// opOutput is a porcupine operation's output.
type opOutput struct {
	Unknown    bool // no complete response, or a status that says nothing
	Status     int
	HasHeaders bool
	Rem        int
	Reset      int64
	Resp       string
	// Penalties: the history claims penalties, and PenaltyUntil is the
	// 429's penalty marker (penalty_until, 0: none; dialect.PenaltyOf).
	Penalties    bool
	PenaltyUntil int64
}

// bucketModel is the sequential specification of one bucket: the PRD's
// decision (model.PRD: a fixed window of limit units starting at the
// bucket's first request, refilled by the first request at or after Reset;
// 429 changes nothing) applied at a time the operation may have taken effect,
// plus idempotency: an identical replay returns the recorded status and body
// and spends nothing; the same key with another body is refused (409/422) or
// processed as new. Since an operation's time is only known to lie in
// [From, To], a window's Reset is a range [ResetLo, ResetHi].
type bucketModel struct {
	prd model.PRD
	tol int64 // nanoseconds
}

// branches are the states the bucket can be in when op in takes effect:
// the current window, or a fresh one when the window may have expired.
func (m bucketModel) branches(s bucketState, in opInput) (cur []bucketState, fresh bool) {
	if s.ResetLo == 0 {
		return nil, true
	}
	if in.From-m.tol < (s.ResetHi+1)*1e9 {
		cur = append(cur, s)
	}
	fresh = in.To+m.tol >= (s.ResetLo-1)*1e9
	return cur, fresh
}

// opened is a fresh window opened by in: what the model shows an absent
// bucket at the earliest and the latest time in could have taken effect.
func (m bucketModel) opened(s bucketState, in opInput) bucketState {
	tolS := m.tol/1e9 + 1
	_, first := m.prd.Step(model.State{}, model.Request{Cost: 0}, time.Unix(0, in.From))
	_, last := m.prd.Step(model.State{}, model.Request{Cost: 0}, time.Unix(0, in.To+1e9-1))
	return bucketState{Rem: first.Remaining, ResetLo: first.Reset - tolS, ResetHi: last.Reset + tolS, Cache: s.Cache}
}

// current is window e as the model's state, and a time at which in could
// have taken effect while e was still the current window.
func (m bucketModel) current(e bucketState, in opInput) (model.State, time.Time) {
	return model.State{Found: true, Remaining: e.Rem, Reset: e.ResetHi}, time.Unix(0, min(in.From, e.ResetHi*1e9-1))
}

// look is the model's Remaining for a request that spends nothing in e.
func (m bucketModel) look(e bucketState, in opInput) int {
	st, at := m.current(e, in)
	_, d := m.prd.Step(st, model.Request{Cost: 0}, at)
	return d.Remaining
}

// matchReset pins the window to the response's Reset when it fits.
func matchReset(s bucketState, out opOutput) (bucketState, bool) {
	if !out.HasHeaders {
		return s, true
	}
	if out.Reset < s.ResetLo-1 || out.Reset > s.ResetHi+1 {
		return s, false
	}
	if s.ResetLo != s.ResetHi {
		s.ResetLo, s.ResetHi = out.Reset, out.Reset
	}
	return s, true
}

func (m bucketModel) step(s bucketState, input, output any) []bucketState {
	in, out := input.(opInput), output.(opOutput)
	cur, fresh := m.branches(s, in)
	var cands []bucketState
	cands = append(cands, cur...)
	if fresh {
		cands = append(cands, m.opened(s, in))
	}
	var next []bucketState
	add := func(st bucketState) { next = append(next, st) }
	if in.Key != "" {
		if c, ok := s.lookup(in.Key); ok && c.body == in.Body {
			// Replay: nothing spent; the window may or may not be touched.
			if out.Unknown || out.Status == http.StatusConflict || out.Status == http.StatusTooEarly {
				add(s)
				return next
			}
			if c.status >= 0 && (out.Status != c.status || (c.resp != "" && out.Resp != c.resp)) {
				return nil
			}
			for _, e := range cands {
				if !out.HasHeaders || out.Rem == m.look(e, in) {
					if st, ok := matchReset(e, out); ok {
						add(st)
					}
				}
			}
			if len(next) == 0 && out.HasHeaders && s.ResetLo != 0 && out.Rem == s.Rem {
				// A server that does not refresh an expired window on a
				// replay reports the stale state; the header check flags
				// a Reset in the past, the model accepts it.
				if st, ok := matchReset(s, out); ok {
					add(st)
				}
			}
			return next
		} else if ok {
			// Same key, another body: refused, or processed as new (the
			// record kept or replaced).
			if out.Status == http.StatusConflict || out.Status == http.StatusUnprocessableEntity {
				add(s)
				return next
			}
			for _, e := range cands {
				for _, st := range m.spend(e, in, out) {
					next = append(next, st)
					if !out.Unknown && out.Status == http.StatusOK {
						next = append(next, st.store(in.Key, cached{in.Body, out.Status, out.Resp}))
					}
				}
			}
			if out.Unknown {
				add(s)
			}
			return next
		}
	}
	if out.Unknown {
		add(s) // never took effect
	}
	for _, e := range cands {
		for _, st := range m.spend(e, in, out) {
			if in.Key == "" {
				add(st)
				continue
			}
			switch {
			case out.Unknown:
				add(st.store(in.Key, cached{in.Body, -1, ""}))
			case out.Status == http.StatusOK:
				add(st.store(in.Key, cached{in.Body, out.Status, out.Resp}))
			default: // 429: recorded or not
				add(st)
				add(st.store(in.Key, cached{in.Body, out.Status, out.Resp}))
			}
		}
	}
	return next
}

// spend applies a fresh request to window state e: the model's decision
// must match the response.
func (m bucketModel) spend(e bucketState, in opInput, out opOutput) []bucketState {
	st, at := m.current(e, in)
	next, d := m.prd.Step(st, model.Request{Cost: 1}, at)
	switch {
	case out.Unknown:
		e.Rem = next.Remaining
		return []bucketState{e}
	case out.Status == http.StatusOK:
		if !d.Allowed || (out.HasHeaders && out.Rem != d.Remaining) {
			return nil
		}
		e.Rem = next.Remaining
	case out.Status == http.StatusTooManyRequests:
		if d.Allowed || (out.HasHeaders && out.Rem != d.Remaining) {
			return nil
		}
	default:
		return nil
	}
	pinned, ok := matchReset(e, out)
	if !ok {
		return nil
	}
	return []bucketState{pinned}
}

func describeOp(input, output any) string {
	in, out := input.(opInput), output.(opOutput)
	if out.Unknown {
		return fmt.Sprintf("#%d %s → unknown", in.Index, in.Kind)
	}
	if !out.HasHeaders {
		return fmt.Sprintf("#%d %s → %d", in.Index, in.Kind, out.Status)
	}
	return fmt.Sprintf("#%d %s → %d rem=%d reset=%d", in.Index, in.Kind, out.Status, out.Rem, out.Reset)
}

// Model returns the porcupine model of a bucket for h's limit, window and
// tolerance: for the PRD the bucket model below (with idempotency), for
// the token and leaky buckets without penalties and the sliding log their
// zones (zone.go), for another profile StepOracle on h.Model. Operations
// are partitioned by bucket (Metadata carries it).
func Model(h *History) porcupine.Model {
	switch by, d := oracleOf(h); by {
	case byZones:
		return d.model(h)
	case byStepOracle:
		return stepModel(h)
	}
	return prdSpec(h).model(func(st bucketState) string {
		if st.ResetLo == 0 {
			return "no window"
		}
		keys := 0
		if st.Cache != "" {
			keys = strings.Count(st.Cache, "\n") + 1
		}
		return fmt.Sprintf("rem=%d reset=%d..%d keys=%d", st.Rem, st.ResetLo, st.ResetHi, keys)
	})
}

// prdSpec is the PRD's bucket model for h's limit, window and tolerance.
func prdSpec(h *History) *setSpec[bucketState] {
	m := bucketModel{prd: model.PRD{Limit: h.Limit, Window: h.Window}, tol: int64(h.Tolerance)}
	return &setSpec[bucketState]{step: m.step}
}

func partitionByBucket(ops []porcupine.Operation) [][]porcupine.Operation {
	idx := map[string]int{}
	var parts [][]porcupine.Operation
	for _, op := range ops {
		b := op.Metadata.(string)
		i, ok := idx[b]
		if !ok {
			i = len(parts)
			idx[b] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], op)
	}
	return parts
}

// LinearResult is porcupine's verdict on a history.
type LinearResult struct {
	Result porcupine.CheckResult
	Info   porcupine.LinearizationInfo
	Model  porcupine.Model
}

// Linearizable checks every bucket's history against the sequential model
// (Checker.Linearizable). A timeout gives porcupine.Unknown (not a
// violation).
func Linearizable(h *History, timeout time.Duration) LinearResult {
	return CheckerOf(h).Linearizable(timeout)
}

// Visualize writes porcupine's HTML visualisation of r into dir as name.
func (r LinearResult) Visualize(dir, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report dir: %w", err)
	}
	p := filepath.Join(dir, name)
	if err := porcupine.VisualizePath(r.Model, r.Info, p); err != nil {
		return "", fmt.Errorf("visualise: %w", err)
	}
	return p, nil
}
