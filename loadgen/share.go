package loadgen

import (
	"fmt"
	"time"
)

// Share is generator Index's part of a load that Of generators put on one
// target together: Rate requests per second (the total divided evenly),
// Buckets of the keys (disjoint, since every generator draws its own), and
// the Offset of its schedule, Index/total rate, so the generators' requests
// interleave into the total's evenly spaced timeline.
type Share struct {
	Index, Of int
	Rate      float64 // 0: closed loop, each generator on its own connections
	Buckets   int
	Offset    time.Duration
}

// ShareOf is generator i's share (0 ≤ i < n) of rate requests per second
// over buckets keys; the first buckets mod n generators take one key more.
func ShareOf(i, n int, rate float64, buckets int) (Share, error) {
	switch {
	case n < 1:
		return Share{}, fmt.Errorf("GENERATORS=%d must be at least 1", n)
	case i < 0 || i >= n:
		return Share{}, fmt.Errorf("generator index %d is not in 0..%d (GENERATORS=%d)", i, n-1, n)
	case buckets < n:
		return Share{}, fmt.Errorf("BUCKETS=%d cannot be shared by %d generators: give each at least one", buckets, n)
	}
	s := Share{Index: i, Of: n, Buckets: buckets / n}
	if i < buckets%n {
		s.Buckets++
	}
	if rate > 0 {
		s.Rate = rate / float64(n)
		s.Offset = time.Duration(float64(i) / rate * float64(time.Second))
	}
	return s, nil
}

// Pacer is the share's schedule: the share's rate, shifted by its offset;
// nil in a closed loop.
func (s Share) Pacer() Pacer {
	if s.Rate == 0 {
		return nil
	}
	return OffsetPacer{ConstantPacer: ConstantPacer{Rate: s.Rate}, Offset: s.Offset}
}

// String is "i/N", as Meta.Generator.
func (s Share) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Of) }

// OffsetPacer is a ConstantPacer shifted later by Offset: request n is
// due at Offset + n/Rate.
type OffsetPacer struct {
	ConstantPacer
	Offset time.Duration
}

var _ Pacer = OffsetPacer{}

// At is Offset + n/Rate.
func (p OffsetPacer) At(n uint64) time.Duration {
	at := p.ConstantPacer.At(n)
	if at > 1<<62 {
		return at
	}
	return at + p.Offset
}

// Due counts the requests due by elapsed: none before Offset.
func (p OffsetPacer) Due(elapsed time.Duration) uint64 {
	return p.ConstantPacer.Due(elapsed - p.Offset)
}
