package histcheck

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"
)

const devA, devB = "dev:aaaa", "dev:bbbb"

// untimed checks linearizability without a deadline: a test's check ends
// with its answer or at go test's -timeout, never with Unknown because a
// loaded machine was slow (a timed assertion in disguise).
const untimed time.Duration = 0

func verdict(t *testing.T, h *History) (Class, porcupine.CheckResult) {
	t.Helper()
	vs := Check(h)
	lin := Linearizable(h, untimed)
	for _, v := range vs {
		t.Log(v)
	}
	return Primary(vs), lin.Result
}

func wantClean(t *testing.T, h *History) {
	t.Helper()
	c, res := verdict(t, h)
	if c != "" || res != porcupine.Ok {
		for i := range h.Ops {
			t.Log(h.Ops[i].String())
		}
		t.Fatalf("correct history flagged: class %q, linearizable %v", c, res)
	}
}

func wantCaught(t *testing.T, h *History, class Class) {
	t.Helper()
	c, res := verdict(t, h)
	if res != porcupine.Illegal {
		t.Errorf("porcupine: %v, want Illegal", res)
	}
	if c != class {
		t.Errorf("direct checks: primary class %q, want %q", c, class)
	}
}

func TestCorrectHistories(t *testing.T) {
	t.Run("sequential exhaust", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		for i := 0; i < 5; i++ {
			s.run(fresh(devA))
		}
		wantClean(t, s.h)
	})
	t.Run("concurrent burst", func(t *testing.T) {
		s := newSynth(3, time.Hour, 2)
		s.run(fresh(devA), fresh(devA), fresh(devA), fresh(devA), fresh(devA), fresh(devB))
		s.run(fresh(devA), fresh(devB))
		wantClean(t, s.h)
	})
	t.Run("replays and conflicts", func(t *testing.T) {
		s := newSynth(3, time.Hour, 3)
		s.run(keyed(devA, "k1", "b1"), keyed(devA, "k1", "b1"), keyed(devA, "k1", "b1"))
		s.run(keyed(devA, "k1", "b1"), keyed(devA, "k1", "other"), fresh(devA))
		s.run(fresh(devA), fresh(devA), keyed(devA, "k1", "b1"))
		wantClean(t, s.h)
	})
	t.Run("window boundary", func(t *testing.T) {
		s := newSynth(2, 3*time.Second, 4)
		s.run(fresh(devA), fresh(devA), fresh(devA))
		s.now = s.now.Add(3 * time.Second)
		s.run(fresh(devA), fresh(devA), fresh(devA), fresh(devA))
		wantClean(t, s.h)
	})
	t.Run("lost responses", func(t *testing.T) {
		s := newSynth(3, time.Hour, 5)
		lost := fresh(devA)
		lost.unknown = true
		s.run(fresh(devA), lost, fresh(devA))
		s.run(fresh(devA))
		wantClean(t, s.h)
	})
}

func TestBrokenHistories(t *testing.T) {
	t.Run("oversell", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		s.sim.bugs.staleRead = true
		s.run(fresh(devA), fresh(devA), fresh(devA), fresh(devA))
		wantCaught(t, s.h, ClassOversell)
	})
	t.Run("stale read under limit", func(t *testing.T) {
		s := newSynth(5, time.Hour, 1)
		s.sim.bugs.staleRead = true
		s.run(fresh(devA), fresh(devA))
		wantCaught(t, s.h, ClassDuplicate)
	})
	t.Run("replay spends", func(t *testing.T) {
		s := newSynth(5, time.Hour, 1)
		s.sim.bugs.replaySpends = true
		s.run(keyed(devA, "k", "b"))
		s.run(keyed(devA, "k", "b"))
		s.run(fresh(devA))
		// The direct checks count a key once and see no gap they can
		// prove; the model sees the replay's Remaining drop.
		_, res := verdict(t, s.h)
		if res != porcupine.Illegal {
			t.Fatalf("porcupine: %v, want Illegal", res)
		}
	})
	t.Run("racing reset", func(t *testing.T) {
		s := newSynth(2, 3*time.Second, 1)
		s.run(fresh(devA), fresh(devA))
		s.now = s.now.Add(3 * time.Second)
		s.sim.bugs.staleRead = true
		s.run(fresh(devA), fresh(devA))
		wantCaught(t, s.h, ClassDuplicate)
	})
	t.Run("429 moves reset", func(t *testing.T) {
		s := newSynth(1, 10*time.Second, 1)
		s.sim.bugs.moveOn429 = true
		s.run(fresh(devA))
		s.now = s.now.Add(4 * time.Second)
		s.run(fresh(devA))
		s.run(fresh(devA))
		_, res := verdict(t, s.h)
		if res != porcupine.Illegal {
			t.Fatalf("porcupine: %v, want Illegal", res)
		}
	})
	t.Run("missing unit", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		s.run(fresh(devA))
		s.run(fresh(devA))
		// Drop the second op's effect from the record: the third op's
		// Remaining then skips a value nobody spent.
		s.h.Ops = s.h.Ops[:1]
		s.run(fresh(devA))
		s.h.Ops[1].Index = 1
		_, res := verdict(t, s.h)
		if res != porcupine.Illegal {
			t.Fatalf("porcupine: %v, want Illegal", res)
		}
	})
	t.Run("undersell", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		ops := s.run(fresh(devA), fresh(devA))
		ops[1].Ex.Status = http.StatusTooManyRequests
		ops[1].Ex.RespHeader.Set("X-RateLimit-Remaining", "0")
		ops[1].Ex.RespBody = []byte(`{"error":"rate_limited"}`)
		wantCaught(t, s.h, ClassUndersell)
	})
	t.Run("bad headers", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		ops := s.run(fresh(devA))
		ops[0].Ex.RespHeader.Del("X-RateLimit-Reset")
		if c, _ := verdict(t, s.h); c != ClassHeaders {
			t.Fatalf("class %q, want %q", c, ClassHeaders)
		}
	})
	t.Run("server error", func(t *testing.T) {
		s := newSynth(3, time.Hour, 1)
		ops := s.run(fresh(devA))
		ops[0].Ex.Status = http.StatusInternalServerError
		if c, _ := verdict(t, s.h); c != ClassStatus {
			t.Fatalf("class %q, want %q", c, ClassStatus)
		}
	})
}

// TestModelAcceptsRandomCorrectHistories: every history the correct
// simulator produces is clean, and the stale-read simulator's histories are
// caught whenever two ops of a burst shared a bucket with units left.
func TestModelAcceptsRandomCorrectHistories(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		limit := rapid.IntRange(1, 4).Draw(rt, "limit")
		s := newSynth(limit, 3*time.Second, rapid.Uint64().Draw(rt, "seed"))
		buckets := []string{devA, devB}
		for b := rapid.IntRange(1, 4).Draw(rt, "bursts"); b > 0; b-- {
			if rapid.Bool().Draw(rt, "advance") {
				s.now = s.now.Add(time.Duration(rapid.IntRange(1, 4).Draw(rt, "secs")) * time.Second)
			}
			var reqs []synthReq
			for n := rapid.IntRange(1, 8).Draw(rt, "n"); n > 0; n-- {
				bucket := rapid.SampledFrom(buckets).Draw(rt, "bucket")
				switch rapid.IntRange(0, 2).Draw(rt, "kind") {
				case 0:
					reqs = append(reqs, fresh(bucket))
				case 1:
					g := rapid.IntRange(0, 1).Draw(rt, "group")
					reqs = append(reqs, keyed(bucket, bucket+"-k"+string(rune('0'+g)), "b"))
				case 2:
					r := fresh(bucket)
					r.unknown = true
					reqs = append(reqs, r)
				}
			}
			s.run(reqs...)
		}
		vs := Check(s.h)
		lin := Linearizable(s.h, untimed)
		if len(vs) > 0 || lin.Result != porcupine.Ok {
			for i := range s.h.Ops {
				rt.Log(s.h.Ops[i].String())
			}
			rt.Fatalf("correct history flagged: %v, linearizable %v", vs, lin.Result)
		}
	})
}

func TestVisualizeWritesHTML(t *testing.T) {
	s := newSynth(2, time.Hour, 1)
	s.sim.bugs.staleRead = true
	s.run(fresh(devA), fresh(devA), fresh(devA))
	lin := Linearizable(s.h, untimed)
	if lin.Result != porcupine.Illegal {
		t.Fatalf("result %v", lin.Result)
	}
	p, err := lin.Visualize(t.TempDir(), "race.html")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), "<html") || filepath.Ext(p) != ".html" {
		t.Fatalf("visualisation %s: %v", p, err)
	}
}

// A request without a response may be decided after the clock has moved on
// for the next burst (a timeout on a loaded machine): BoundLost gives it the
// end of the history as its latest decision time, and a history where it
// was decided late is clean. Bounded by its own burst's clock, the same
// history is (falsely) not linearizable.
func TestLostResponseDecidedAfterTheClockMoved(t *testing.T) {
	build := func(bound bool) *History {
		s := newSynth(1, 3*time.Second, 1)
		sentAt := s.now                    // burst 0: the lost request goes out in the first window
		s.now = s.now.Add(5 * time.Second) // past the window and its 1 s of slack
		lost := fresh(devA)
		lost.unknown = true
		s.run(lost)        // ...and takes the token in the second window
		s.run(fresh(devA)) // so this one is refused
		a := &s.h.Ops[0]
		a.Burst, a.ServerFrom, a.ServerTo = 0, sentAt, sentAt
		if bound {
			s.h.BoundLost()
		}
		return s.h
	}
	if _, res := verdict(t, build(true)); res != porcupine.Ok {
		t.Fatalf("lost request bounded by the end of the history: porcupine %v, want Ok", res)
	}
	if _, res := verdict(t, build(false)); res != porcupine.Illegal {
		t.Fatalf("decision bounded by its own burst: porcupine %v, want Illegal (the false verdict BoundLost avoids)", res)
	}
}
