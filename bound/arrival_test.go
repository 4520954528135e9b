package bound

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/clause"
)

func newTB(burst, rate float64, gran int64, uncapped bool) *tokenBucket {
	return &tokenBucket{burst: burst, rate: rate, gran: gran, uncapped: uncapped, tokens: map[string]float64{}, last: map[string]int64{}}
}

// TestTokenBucketNoFalseVerdicts: a correct bucket is never reported,
// whatever the latencies, placements, granularity and rate.
func TestTokenBucketNoFalseVerdicts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		burst := float64(rapid.IntRange(1, 6).Draw(t, "burst"))
		rate := rapid.SampledFrom([]float64{0.5, 1, 2.5, 10}).Draw(t, "rate")
		xs, g := genExchanges(t, 4*time.Second), grans(t)
		es := run(newTB(burst, rate, g, false), xs)
		if vs := TokenBucket(es, int(burst), rate, DefaultTolerance); len(vs) > 0 {
			t.Fatalf("correct bucket (B=%g R=%g gran=%d) reported: %v", burst, rate, g, vs[0])
		}
	})
}

// TestTokenBucketTeeth: a bucket that is not capped after a long idle lets a
// burst of far more than B through; the arrival bound catches it with the
// requests that prove it.
func TestTokenBucketTeeth(t *testing.T) {
	const burst, rate = 3, 1.0
	var xs []exchange
	at := epoch
	add := func() {
		xs = append(xs, exchange{key: "k", send: at, recv: at + ms, decd: at})
		at += 10 * ms
	}
	add()                    // first request: the bucket is full
	at += int64(time.Minute) // idle a minute: an uncapped bucket holds 60 tokens
	for range 10 {
		add()
	}
	if vs := TokenBucket(run(newTB(burst, rate, 1, false), xs), burst, rate, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("capped bucket reported: %v", vs[0])
	}
	vs := TokenBucket(run(newTB(burst, rate, 1, true), xs), burst, rate, DefaultTolerance)
	if len(vs) != 1 || vs[0].Clause != clause.TB1 {
		t.Fatalf("uncapped bucket: %v; want one TB-1 violation", vs)
	}
	if n := len(vs[0].Events); n < burst+3 {
		t.Errorf("evidence has %d requests; a violation needs more than B + R·Δt + 1 = %d", n, burst+2)
	}
	t.Log(vs[0])
}

func TestMaxTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(rapid.IntRange(-50, 50).Draw(t, "v"))
		}
		tree := newMaxTree(vals)
		for range rapid.IntRange(0, 30).Draw(t, "ops") {
			l := rapid.IntRange(0, n-1).Draw(t, "l")
			r := rapid.IntRange(l, n-1).Draw(t, "r")
			if rapid.Bool().Draw(t, "add") {
				v := float64(rapid.IntRange(-5, 5).Draw(t, "delta"))
				tree.add(l, r, v)
				for i := l; i <= r; i++ {
					vals[i] += v
				}
				continue
			}
			got, at := tree.max(l, r)
			want := vals[l]
			for i := l; i <= r; i++ {
				want = max(want, vals[i])
			}
			if got != want || vals[at] != want || at < l || at > r {
				t.Fatalf("max(%d,%d) = %g at %d; want %g", l, r, got, at, want)
			}
		}
	})
}
