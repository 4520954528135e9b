package bound

import (
	"slices"
	"time"
)

// Span is a stretch of time [From, To) in unix nanoseconds.
type Span struct{ From, To int64 }

// Uncovered is the longest stretch of phases of a period w that no span
// covers, each span taken modulo w: 0 when together they cover every
// phase of every grid of period w — whatever a grid's offset, a boundary
// of it lies in some span. A check that must meet every boundary of an
// unknown grid (SL-1-02) rests on that.
func Uncovered(spans []Span, w time.Duration) time.Duration {
	W := int64(w)
	if W <= 0 {
		return 0
	}
	var parts []Span
	for _, s := range spans {
		if s.To-s.From >= W {
			return 0
		}
		if s.To <= s.From {
			continue
		}
		a := s.From - floorDiv(s.From, W)*W
		b := a + s.To - s.From
		if b <= W {
			parts = append(parts, Span{a, b})
			continue
		}
		parts = append(parts, Span{a, W}, Span{0, b - W})
	}
	if len(parts) == 0 {
		return w
	}
	slices.SortFunc(parts, func(x, y Span) int { return cmp64(x.From, y.From) })
	var gap int64
	reach := parts[0].To
	for _, p := range parts[1:] {
		gap = max(gap, p.From-reach)
		reach = max(reach, p.To)
	}
	gap = max(gap, W-reach+parts[0].From) // around the end of the period
	return time.Duration(gap)
}
