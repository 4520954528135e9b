package bound

import (
	"testing"
	"time"
)

func TestUncovered(t *testing.T) {
	s := int64(time.Second)
	base := 1_700_000_000 * s // a multiple of 3 s? no matter: phases are relative
	for _, c := range []struct {
		name  string
		spans []Span
		want  time.Duration
	}{
		{"none", nil, 3 * time.Second},
		{"one span longer than W", []Span{{base, base + 4*s}}, 0},
		{"three thirds, overlapping", []Span{{base, base + 2*s}, {base + 4*s, base + 6*s}, {base + 8*s, base + 10*s}}, 0},
		{"three thirds, short", []Span{{base, base + s/2}, {base + 4*s, base + 4*s + s/2}, {base + 8*s, base + 8*s + s/2}}, time.Second / 2},
		{"one span, wrapping", []Span{{base + 2*s, base + 4*s}}, time.Second},
		{"empty spans", []Span{{base, base}}, 3 * time.Second},
	} {
		if got := Uncovered(c.spans, 3*time.Second); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
