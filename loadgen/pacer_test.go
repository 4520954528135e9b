package loadgen

import (
	"testing"
	"time"
)

func TestConstantPacerAt(t *testing.T) {
	tests := []struct {
		rate float64
		n    uint64
		want time.Duration
	}{
		{1000, 0, 0},
		{1000, 1, time.Millisecond},
		{1000, 1500, 1500 * time.Millisecond},
		{3, 1, 333333333},
		{3, 3, time.Second},
		{0.5, 1, 2 * time.Second},
		{2.5, 5, 2 * time.Second},
		{1e6, 1e9, 1000 * time.Second},
	}
	for _, tt := range tests {
		if got := (ConstantPacer{Rate: tt.rate}).At(tt.n); got != tt.want {
			t.Errorf("ConstantPacer{%v}.At(%d) = %v, want %v", tt.rate, tt.n, got, tt.want)
		}
	}
}

func TestConstantPacerDue(t *testing.T) {
	tests := []struct {
		rate    float64
		elapsed time.Duration
		want    uint64
	}{
		{1000, -time.Nanosecond, 0},
		{1000, 0, 1},
		{1000, time.Millisecond - 1, 1},
		{1000, time.Millisecond, 2},
		{1000, time.Second, 1001},
		{3, time.Second, 4},
		{0.5, 3 * time.Second, 2},
		{2.5, time.Second, 3},
	}
	for _, tt := range tests {
		if got := (ConstantPacer{Rate: tt.rate}).Due(tt.elapsed); got != tt.want {
			t.Errorf("ConstantPacer{%v}.Due(%v) = %d, want %d", tt.rate, tt.elapsed, got, tt.want)
		}
	}
}

// Due and At agree: request Due(e)-1 is due by e, request Due(e) is not.
func TestConstantPacerConsistent(t *testing.T) {
	for _, rate := range []float64{1, 7, 1000, 333.3, 0.1, 12345.678} {
		p := ConstantPacer{Rate: rate}
		for e := time.Duration(0); e < 3*time.Second; e += 997 * time.Microsecond {
			n := p.Due(e)
			if n == 0 || p.At(n-1) > e || p.At(n) <= e {
				t.Fatalf("rate %v elapsed %v: Due=%d At(n-1)=%v At(n)=%v", rate, e, n, p.At(n-1), p.At(n))
			}
		}
	}
}

func TestNewConstantPacerRejects(t *testing.T) {
	for _, r := range []float64{0, -1, 2e9} {
		if _, err := NewConstantPacer(r); err == nil {
			t.Errorf("NewConstantPacer(%v) accepted", r)
		}
	}
}
