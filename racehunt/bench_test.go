package racehunt

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// benchHistory is a correct history of n requests over buckets buckets:
// bursts of 20 concurrent requests on 4 buckets (about 5 overlapping
// requests per bucket),
// a quarter of them idempotent (replays included), a limit each bucket
// exhausts, and windows that pass during the run.
func benchHistory(n, buckets int) *History {
	s := newSynth(8, 10*time.Second, 42)
	rng := rand.New(rand.NewPCG(7, 7))
	for len(s.h.Ops) < n {
		if rng.IntN(50) == 0 {
			s.now = s.now.Add(5 * time.Second)
		}
		var reqs []synthReq
		hot := rng.IntN(buckets) // 4 buckets per burst: ~5 overlapping requests each
		for i := 0; i < 20 && len(s.h.Ops)+len(reqs) < n; i++ {
			b := fmt.Sprintf("dev:%04d", (hot+rng.IntN(4))%buckets)
			if rng.IntN(4) == 0 {
				reqs = append(reqs, keyed(b, fmt.Sprintf("%s-k%d", b, rng.IntN(5)), "body"))
				continue
			}
			reqs = append(reqs, fresh(b))
		}
		s.run(reqs...)
	}
	return s.h
}

func TestBenchHistoryIsCleanAndBig(t *testing.T) {
	h := benchHistory(10000, 100)
	if len(h.Ops) != 10000 {
		t.Fatalf("%d ops", len(h.Ops))
	}
	seen := map[string]bool{}
	var ok, limited int
	for i := range h.Ops {
		seen[h.Ops[i].Bucket] = true
		switch statusOf(&h.Ops[i]) {
		case 200:
			ok++
		case 429:
			limited++
		}
	}
	if len(seen) != 100 || ok == 0 || limited == 0 {
		t.Fatalf("buckets %d, 200s %d, 429s %d", len(seen), ok, limited)
	}
	if vs := Check(h); len(vs) > 0 {
		t.Fatalf("violations on a correct history: %v", vs[0])
	}
	if res := Linearizable(h, time.Minute).Result; res != porcupine.Ok {
		t.Fatalf("porcupine: %v", res)
	}
}

// BenchmarkCheckHistory checks a recorded history of 10,000 requests over
// 100 buckets: the direct checks and porcupine (target: under 2 s).
func BenchmarkCheckHistory(b *testing.B) {
	h := benchHistory(10000, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if vs := Check(h); len(vs) > 0 {
			b.Fatal(vs[0])
		}
		if res := Linearizable(h, time.Minute).Result; res != porcupine.Ok {
			b.Fatalf("porcupine: %v", res)
		}
	}
}
