package loadgen

import (
	"fmt"
	"math"
	"time"
)

// Pacer schedules requests on an absolute timeline. It is a pure function of
// elapsed time: the same arguments always give the same answer, so a pacer
// never drifts and never "catches up" by guessing.
type Pacer interface {
	// At is the intended send time of request n (n counts from 0), as an
	// offset from the start of the run.
	At(n uint64) time.Duration
	// Due is the number of requests whose intended send time is at or before
	// elapsed.
	Due(elapsed time.Duration) uint64
}

// ConstantPacer sends Rate requests per second, evenly spaced: request n is
// due at n/Rate seconds.
type ConstantPacer struct {
	Rate float64 // requests per second, > 0
}

var _ Pacer = ConstantPacer{}

// NewConstantPacer returns a pacer of rate requests per second.
func NewConstantPacer(rate float64) (ConstantPacer, error) {
	if !(rate > 0) || math.IsInf(rate, 0) || rate > 1e9 {
		return ConstantPacer{}, fmt.Errorf("rate %v must be a positive number of requests per second up to 1e9", rate)
	}
	return ConstantPacer{Rate: rate}, nil
}

// At is n/Rate seconds.
func (p ConstantPacer) At(n uint64) time.Duration {
	if p.Rate <= 0 {
		return math.MaxInt64
	}
	// Integer arithmetic for integral rates keeps the timeline exact.
	if r := uint64(p.Rate); float64(r) == p.Rate && n <= math.MaxInt64/uint64(time.Second) {
		return time.Duration(n * uint64(time.Second) / r)
	}
	d := float64(n) / p.Rate * float64(time.Second)
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}

// Due is the count of n with At(n) <= elapsed: floor(elapsed*Rate)+1 for
// elapsed >= 0 (request 0 is due at once), 0 before the start.
func (p ConstantPacer) Due(elapsed time.Duration) uint64 {
	if elapsed < 0 || p.Rate <= 0 {
		return 0
	}
	if r := uint64(p.Rate); float64(r) == p.Rate && uint64(elapsed) <= math.MaxUint64/r {
		return uint64(elapsed)*r/uint64(time.Second) + 1
	}
	n := uint64(elapsed.Seconds()*p.Rate) + 1
	// Guard float rounding: make Due consistent with At.
	for n > 0 && p.At(n-1) > elapsed {
		n--
	}
	for p.At(n) <= elapsed {
		n++
	}
	return n
}
