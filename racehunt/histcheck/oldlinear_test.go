package histcheck

import (
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// The linearizability check of the whole history before Checker, the
// second half of the oracle in oldcheck_test.go.

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
		Step:              anyStep(m.step),
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
	memo := newStepMemo(StepOracle{Model: h.Model, Tol: h.Tolerance, ResetSlack: 1})
	nm := porcupine.NondeterministicModel{
		Partition:         partitionByBucket,
		Init:              func() []any { return []any{keyState{}} },
		Step:              anyStep(memo.step),
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

// anyStep is a typed step as porcupine.NondeterministicModel's.
func anyStep[S any](step func(s S, input, output any) []S) func(state, input, output any) []any {
	return func(state, input, output any) []any {
		var out []any
		for _, n := range step(state.(S), input, output) {
			out = append(out, n)
		}
		return out
	}
}
