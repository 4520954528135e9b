package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// design is a model the suite runs the reference on, with the burst a
// fresh key gets at one instant (its N, or a leaky bucket's B + 1).
type design struct {
	name  string
	m     model.Model
	burst int
}

// designs are every registered design at a quota of 20 (a bucket at 4
// per second, windows of 3 s), in each alignment it takes and, for a
// queue, in both modes: a design registered in profile is run on every
// store without a line here. The PRD's and the windows' states are a
// window's count; the sliding-window counter keeps the previous window's
// count in State.Log, the buckets the instant they are full again.
func designs(t testing.TB) []design {
	var out []design
	for _, p := range profile.All() {
		aligns := []profile.Align{""}
		if p.TakesSetting(profile.SettingWindowAlign) {
			aligns = p.Aligns
		}
		modes := []bool{false}
		if p.Queues {
			modes = []bool{false, true}
		}
		for _, a := range aligns {
			for _, nodelay := range modes {
				ps := p.AtQuota(profile.Params{Window: 3 * time.Second, Rate: 4, Align: a, Anchor: time.Unix(1_800_000_001, 0), NoDelay: nodelay}, 20)
				m, err := p.Design(ps)
				if err != nil {
					t.Fatalf("%s at a quota of 20: %v", p.Name, err)
				}
				name := p.Label(ps)
				if a != "" && !strings.Contains(name, string(a)) {
					name += " " + string(a)
				}
				out = append(out, design{name: name, m: m, burst: p.Quota(ps)})
			}
		}
	}
	return out
}

var designT0 = time.Unix(1_800_000_000, 250_000_000)

// onStore is the reference of design d on a fresh store from open, on a
// fake clock at designT0; the caller closes the store.
func (d design) onStore(t testing.TB, open Open) (*reference.Reference, reference.Store, *reference.FakeClock) {
	t.Helper()
	clock := reference.NewFakeClock(designT0)
	store := fresh(t, open)
	ref, err := reference.New(d.m, store, reference.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	return ref, store, clock
}

// TestDesigns: the reference on the store decides a random walk of
// requests (bursts, pauses, two keys) exactly as the design does on states
// kept in memory — the store keeps every field the design writes.
func TestDesigns(t testing.TB, open Open) {
	for _, d := range designs(t) {
		ref, store, clock := d.onStore(t, open)
		r := rand.New(rand.NewPCG(7, 11))
		mem := map[string]model.State{}
		for i := range 120 {
			if r.IntN(3) == 0 {
				clock.Advance(time.Duration(r.Int64N(1500)) * time.Millisecond)
			}
			key := fmt.Sprint("k", r.IntN(2))
			got, err := ref.Decide(context.Background(), reference.Request{Bucket: key, BodySHA256: sum("")})
			if err != nil {
				t.Fatalf("%s: request %d: %v", d.name, i, err)
			}
			next, want := d.m.Step(mem[key], model.Request{Cost: 1}, clock.Now())
			mem[key] = next
			if (got.Outcome == reference.Allowed) != want.Allowed || got.Remaining != want.Remaining || got.Reset != want.Reset ||
				got.RetryAfter != want.RetryAfter || got.Wait != want.Wait {
				t.Fatalf("%s: request %d at %v: the reference on the store decided %+v, the design %+v", d.name, i, clock.Now(), got, want)
			}
		}
		_ = store.Close() // one design's connections at a time (PostgreSQL's max_connections)
	}
}

// TestDesignsAtomic: burst + k concurrent requests on a fresh key at one
// instant get exactly the design's burst allowed, and a leaky bucket gives
// each allowed request its own turn (no two the same Wait) — the check
// and the spend are one transaction.
func TestDesignsAtomic(t testing.TB, open Open) {
	for _, d := range designs(t) {
		ref, store, _ := d.onStore(t, open)
		n := d.burst + 30
		ds := make([]reference.Decision, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ds[i], errs[i] = ref.Decide(context.Background(), reference.Request{Bucket: "hot", BodySHA256: sum("")})
			}()
		}
		wg.Wait()
		allowed, waits := 0, map[time.Duration]bool{}
		for i, dec := range ds {
			if errs[i] != nil {
				t.Fatalf("%s: %v", d.name, errs[i])
			}
			if dec.Outcome != reference.Allowed {
				continue
			}
			allowed++
			if q, ok := d.m.(interface{ FullWait() time.Duration }); ok && q.FullWait() > 0 { // a queue whose requests wait their turn
				if waits[dec.Wait] {
					t.Fatalf("%s: two requests were given the turn %v", d.name, dec.Wait)
				}
				waits[dec.Wait] = true
			}
		}
		if allowed != d.burst {
			t.Fatalf("%s: %d concurrent requests on a fresh key: %d allowed, want %d", d.name, n, allowed, d.burst)
		}
		_ = store.Close()
	}
}
