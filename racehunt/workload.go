package racehunt

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/racehunt/histcheck"
	"pgregory.net/rapid"
)

// Advance says how time moves before a burst.
type Advance int

// Advances. Against the embedded reference the fake clock is moved; against
// a live target the runner waits (bounded by MaxWait) or skips the move.
const (
	Stay Advance = iota
	// ToBoundary moves to the Reset of the burst's first bucket (the window
	// ends exactly when the burst arrives).
	ToBoundary
	// JustBefore moves to one second before that Reset.
	JustBefore
	// HalfSecond moves half a second on: the burst falls in the same
	// second as the one before, at another millisecond (profiles other
	// than the PRD; a store that keeps whole seconds merges them).
	HalfSecond
)

var advanceNames = [...]string{"stay", "to-boundary", "just-before", "half-second"}

func (a Advance) String() string {
	if a < 0 || int(a) >= len(advanceNames) {
		return fmt.Sprintf("advance(%d)", int(a))
	}
	return advanceNames[a]
}

// Burst is a set of requests released together.
type Burst struct {
	Advance Advance
	Reqs    []histcheck.Req
}

// Workload is one generated concurrent workload.
type Workload struct {
	Limit int // quota per window the target enforces
	// Offset (profiles other than the PRD, on a fake clock) starts the run
	// this many half-seconds after a window aligned to the epoch begins,
	// so that the run meets the same boundaries every time.
	Offset  int
	Clients int
	Buckets int
	Groups  int
	Bursts  []Burst
}

// Size is the number of requests.
func (w Workload) Size() int {
	n := 0
	for _, b := range w.Bursts {
		n += len(b.Reqs)
	}
	return n
}

// Notation explains the compact form of String and Req.String, for output
// that shows a workload.
const Notation = `burst N (stay|to-boundary|just-before): requests released together, after
  time stays, moves to the bucket's Reset, or to one second before it
fresh(cC,bB): client address C sends a ride to device bucket B with a new
  Idempotency-Key; it spends a unit when one is left
keyed(cC,gG): idempotency group G's key and body (group G's bucket is G mod
  buckets); the first of a group spends, every later one is a replay
conflict(cC,gG): group G's key with a different body; never the cached answer
no-bucket(cC), bad-bucket(cC): no or an invalid device_bucket; counted
  against client address C
limit: the quota the target enforces; clients, buckets, groups: how many of
  each the workload uses
profiles other than prd: fresh(cC,bB) is a request with key B (KEY,
  KEY_FORMAT, TARGET_METHOD), no-bucket(cC) one without the key, counted
  against client address C; half-second moves time 500 ms on; offset: the
  run starts that long after a window aligned to the epoch begins (on the
  embedded reference's fake clock)`

// String renders the workload compactly, one burst per line (Notation).
func (w Workload) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "limit=%d clients=%d buckets=%d groups=%d requests=%d", w.Limit, w.Clients, w.Buckets, w.Groups, w.Size())
	if w.Offset > 0 {
		fmt.Fprintf(&b, " offset=%s", time.Duration(w.Offset)*500*time.Millisecond)
	}
	b.WriteByte('\n')
	for i, burst := range w.Bursts {
		fmt.Fprintf(&b, "  burst %d (%s):", i, burst.Advance)
		for _, r := range burst.Reqs {
			b.WriteString(" " + r.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// GroupBucket is the device bucket of idempotency group g.
func (w Workload) GroupBucket(g int) int { return g % w.Buckets }

// GenOptions bound generated workloads.
type GenOptions struct {
	// Profile is the design the target claims: the PRD's workloads use
	// every Kind; another profile's only Fresh (a request with key Bucket)
	// and NoBucket (one without the key, keyed by the client address),
	// and may move time by half a second between bursts.
	Profile profile.Name
	// Limits are the quotas the generator may pick from (each needs a target
	// enforcing it). One value: that quota.
	Limits []int
	// MaxBursts and MaxBurst bound the number of bursts and their size.
	MaxBursts, MaxBurst int
	// Boundaries allows bursts aimed at a window boundary.
	Boundaries bool
}

// Workloads returns a rapid generator of workloads. Values shrink towards
// fewer, smaller bursts of fresh requests on one bucket from one client.
func Workloads(o GenOptions) *rapid.Generator[Workload] {
	if len(o.Limits) == 0 {
		o.Limits = []int{3}
	}
	if o.MaxBursts < 1 {
		o.MaxBursts = 4
	}
	if o.MaxBurst < 1 {
		o.MaxBurst = 16
	}
	return rapid.Custom(func(t *rapid.T) Workload {
		w := Workload{Limit: o.Limits[0]}
		if len(o.Limits) > 1 {
			w.Limit = rapid.SampledFrom(o.Limits).Draw(t, "limit")
		}
		kinds, advances := []histcheck.Kind{histcheck.Fresh, histcheck.Keyed, histcheck.Conflict, histcheck.NoBucket, histcheck.BadBucket}, int(JustBefore)
		if !profile.IsPRD(o.Profile) {
			kinds, advances = []histcheck.Kind{histcheck.Fresh, histcheck.NoBucket}, int(HalfSecond)
		}
		w.Buckets = rapid.IntRange(1, 3).Draw(t, "buckets")
		w.Clients = rapid.IntRange(1, 3).Draw(t, "clients")
		if profile.IsPRD(o.Profile) {
			w.Groups = rapid.IntRange(1, 3).Draw(t, "groups")
		} else {
			w.Offset = rapid.IntRange(0, 5).Draw(t, "offset")
		}
		maxBurst := min(2*w.Limit+3, o.MaxBurst)
		nb := rapid.IntRange(1, o.MaxBursts).Draw(t, "bursts")
		for i := 0; i < nb; i++ {
			var burst Burst
			if i > 0 && o.Boundaries {
				burst.Advance = Advance(rapid.IntRange(0, advances).Draw(t, "advance"))
			}
			n := rapid.IntRange(1, maxBurst).Draw(t, "size")
			for j := 0; j < n; j++ {
				r := histcheck.Req{Kind: kinds[rapid.IntRange(0, len(kinds)-1).Draw(t, "kind")]}
				r.Client = rapid.IntRange(0, w.Clients-1).Draw(t, "client")
				switch r.Kind {
				case histcheck.Fresh:
					r.Bucket = rapid.IntRange(0, w.Buckets-1).Draw(t, "bucket")
				case histcheck.Keyed, histcheck.Conflict:
					r.Group = rapid.IntRange(0, w.Groups-1).Draw(t, "group")
					r.Bucket = w.GroupBucket(r.Group)
				}
				burst.Reqs = append(burst.Reqs, r)
			}
			w.Bursts = append(w.Bursts, burst)
		}
		return w
	})
}
