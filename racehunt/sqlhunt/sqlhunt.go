// Package sqlhunt is the SQL race hunt: race hunting on spec/004's
// check_rate_limit, a function rather than a server (sqltarget's
// RoundTripper; HuntSQL, TARGET_SQL). Its windows are whole
// minutes, so a burst aimed at a window boundary first ages the key's row
// past its window (SQLTarget.Age), which for that key is the window
// passing. The function answers only allowed or refused and counts every
// call, refused ones too, so each burst's outcome is exact: a key that had
// c calls in its window and gets s more concurrently has min(s, max(0,
// N−c)) of them allowed, whatever their order.
package sqlhunt

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
)

// SQLTarget is a function target: a RoundTripper answering each request
// with the function's decision for the key in KeyHeader, and Age, which
// moves a key's window d into the past.
type SQLTarget interface {
	http.RoundTripper
	Age(ctx context.Context, key string, d time.Duration) error
}

// SQLWorkload is one generated workload of the SQL hunt.
type SQLWorkload struct {
	Seed   uint64
	Keys   int
	Bursts []SQLBurst
}

// SQLBurst is s concurrent calls of one key, after aging the key past its
// window when Boundary is set.
type SQLBurst struct {
	Key      int
	Size     int
	Boundary bool
}

func (w SQLWorkload) String() string {
	var b strings.Builder
	for i, burst := range w.Bursts {
		at := ""
		if burst.Boundary {
			at = " after its window passed"
		}
		calls := "concurrent calls"
		if burst.Size == 1 {
			calls = "call"
		}
		fmt.Fprintf(&b, "burst %d: %d %s of key %d%s\n", i, burst.Size, calls, burst.Key, at)
	}
	return b.String()
}

// GenSQLWorkload generates the workload of seed for quota limit: 1–3 keys,
// 2–8 bursts of 1 to limit+3 calls, about a third of them at a boundary.
func GenSQLWorkload(seed uint64, limit int) SQLWorkload {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := SQLWorkload{Seed: seed, Keys: 1 + rng.IntN(3)}
	for range 2 + rng.IntN(7) {
		w.Bursts = append(w.Bursts, SQLBurst{Key: rng.IntN(w.Keys), Size: 1 + rng.IntN(limit+3), Boundary: rng.IntN(3) == 0})
	}
	return w
}

// SQLHuntOptions configure HuntSQL.
type SQLHuntOptions struct {
	Limit     int           // N, the function's p_max_calls
	Window    time.Duration // W, how far a boundary burst ages its key
	KeyHeader string        // default X-User-ID
	Checks    int           // workloads (default 100)
	Seed      uint64        // replay this workload Repeat times instead of searching
	// SearchSeed is the first workload seed of a search (0: random).
	SearchSeed uint64
	Repeat     int // replays of a found or seeded workload (default 20)
	Log        func(format string, args ...any)
}

// SQLResult is what HuntSQL found.
type SQLResult struct {
	Found      bool
	Checks     int           // workloads run clean before the failing one (or in all)
	Calls      int           // calls made, replays included
	Detected   time.Duration // from the start to the failing workload's end
	Duration   time.Duration
	Workload   SQLWorkload
	Violations []string
	SearchSeed uint64 // seeds SearchSeed … SearchSeed+Checks were searched
	// Reproduced of Repeat replays of the failing (or seeded) workload failed.
	Reproduced, Repeat int
}

// HuntSQL runs generated workloads on t until one breaks the exact count
// or draws an error from the function, then replays that workload Repeat
// times. An error means the hunt could not run.
func HuntSQL(ctx context.Context, t SQLTarget, o SQLHuntOptions) (SQLResult, error) {
	if o.Limit < 1 {
		return SQLResult{}, fmt.Errorf("sql hunt: limit %d", o.Limit)
	}
	if o.Checks < 1 {
		o.Checks = 100
	}
	if o.Repeat < 1 {
		o.Repeat = 20
	}
	if o.KeyHeader == "" {
		o.KeyHeader = "X-User-ID"
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	start := time.Now()
	res := SQLResult{Repeat: o.Repeat}
	run := func(w SQLWorkload) ([]string, error) {
		vs, calls, err := runSQLWorkload(ctx, t, o, w)
		res.Calls += calls
		return vs, err
	}
	if o.Seed != 0 {
		res.Workload = GenSQLWorkload(o.Seed, o.Limit)
		for range o.Repeat {
			vs, err := run(res.Workload)
			if err != nil {
				return res, err
			}
			if len(vs) > 0 {
				res.Reproduced++
				if !res.Found {
					res.Found, res.Violations, res.Detected = true, vs, time.Since(start)
				}
			}
		}
		res.Duration = time.Since(start)
		return res, nil
	}
	res.SearchSeed = o.SearchSeed
	if res.SearchSeed == 0 {
		res.SearchSeed = rand.Uint64()>>1 | 1
	}
	for i := range o.Checks {
		w := GenSQLWorkload(res.SearchSeed+uint64(i), o.Limit)
		vs, err := run(w)
		if err != nil {
			return res, err
		}
		if len(vs) == 0 {
			res.Checks++
			continue
		}
		res.Found, res.Workload, res.Violations, res.Detected = true, w, vs, time.Since(start)
		o.Log("workload %d (seed %d) failed after %s; replaying it %d times", i+1, w.Seed, res.Detected.Round(time.Millisecond), o.Repeat)
		for range o.Repeat {
			vs, err := run(w)
			if err != nil {
				return res, err
			}
			if len(vs) > 0 {
				res.Reproduced++
			}
		}
		break
	}
	res.Duration = time.Since(start)
	return res, nil
}

// runSQLWorkload runs w with fresh keys and returns its violations.
func runSQLWorkload(ctx context.Context, t SQLTarget, o SQLHuntOptions, w SQLWorkload) ([]string, int, error) {
	keys := make([]string, w.Keys)
	for i := range keys {
		keys[i] = bodytmpl.NewUUID()
	}
	counted := make([]int, w.Keys) // calls in the key's current window
	var vs []string
	calls := 0
	for bi, b := range w.Bursts {
		if b.Boundary && counted[b.Key] > 0 {
			if err := t.Age(ctx, keys[b.Key], o.Window+time.Second); err != nil {
				return nil, calls, fmt.Errorf("sql hunt: %w", err)
			}
			counted[b.Key] = 0
		}
		statuses, err := sqlBurst(ctx, t, o.KeyHeader, keys[b.Key], b.Size)
		calls += b.Size
		if err != nil {
			return nil, calls, err
		}
		want := min(b.Size, max(0, o.Limit-counted[b.Key]))
		counted[b.Key] += b.Size
		allowed, other := 0, map[int]int{}
		for _, st := range statuses {
			switch st {
			case http.StatusOK:
				allowed++
			case http.StatusTooManyRequests:
			default:
				other[st]++
			}
		}
		if len(other) > 0 {
			vs = append(vs, fmt.Sprintf("burst %d: %s of %d calls of key %d ended in an error of the function (HTTP 503 here; spec/004's edge function fails open, so each is an allow): FW-4", bi, countList(other), b.Size, b.Key))
		}
		if allowed != want {
			vs = append(vs, fmt.Sprintf("burst %d: %d of %d calls of key %d allowed, want exactly %d (N=%d, %d calls already in its window): FW-1/FW-3", bi, allowed, b.Size, b.Key, want, o.Limit, counted[b.Key]-b.Size))
		}
	}
	return vs, calls, nil
}

// sqlBurst releases n calls of key together and returns their statuses.
func sqlBurst(ctx context.Context, t SQLTarget, header, key string, n int) ([]int, error) {
	out := make([]int, n)
	errs := make([]error, n)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://sql-target.invalid/", nil)
			if err != nil {
				errs[i] = err
				ready.Done()
				return
			}
			req.Header.Set(header, key)
			ready.Done()
			<-start
			resp, err := t.RoundTrip(req)
			if err != nil {
				errs[i] = err
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			out[i] = resp.StatusCode
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("sql hunt: call: %w", err)
		}
	}
	return out, nil
}

func countList(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d×HTTP %d", m[k], k)
	}
	return strings.Join(parts, ", ")
}
