package fakeserver

import (
	"flag"
	"fmt"
	"maps"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
)

var soak = flag.Bool("soak", false, "run the load test for 30 s instead of 3 s (make soak)")

// Load test shape: 1,000 concurrent clients, each on its own keep-alive
// connection, closed loop.
const (
	loadHotBuckets = 8   // device buckets shared by loadHotClients each
	loadHotClients = 50  // clients per hot bucket (400 in all)
	loadColdCount  = 500 // clients with a device bucket of their own
	loadIPAddrs    = 4   // loopback source addresses for IP-fallback clients
	loadIPClients  = 25  // clients per address (100 in all): no or an invalid device_bucket
	loadLimit      = 100 // quota per window
	loadWindowSecs = 3   // window length: a 30 s run crosses ~10 windows per bucket
	loadMaxRSS     = 512 << 20
	loadMaxExtra   = 30 * time.Second // how long past duration a run may go on until hot and IP buckets run out
)

// loadClient is one of the 1,000 clients: its bucket (index into the
// bucket table), its connection and the body it posts.
type loadClient struct {
	bucket int
	body   []byte
	http   *http.Client
}

// loadResult is one answered request.
type loadResult struct {
	status    int
	remaining int // -1 when absent
	reset     int64
}

// 1,000 concurrent clients against the reference server binary
// (cmd/fakeserver, built by the test, in its own process):
// hot device buckets shared by 50 clients each (quota exhausted every
// window: 429s and contention on one row), 500 cold buckets, and IP-fallback
// clients from 4 loopback addresses. Every response is a 200 or a 429 with
// the rate-limit headers (never a 5xx, never a transport error); per bucket
// and window (keyed by X-RateLimit-Reset) there are at most limit 200s,
// each with a distinct Remaining in [0, limit); the server stored exactly
// one ride per acknowledged 200; and its peak RSS stays under 512 MiB.
//
//	go test -run '^TestLoad$' -v -timeout 5m ./fakeserver          # 3 s
//	go test -run '^TestLoad$' -v -timeout 5m ./fakeserver -soak    # 30 s (make soak)
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and 1,000 clients")
	}
	duration := 3 * time.Second
	if *soak {
		duration = 30 * time.Second
	}
	rep := runLoad(t, "", duration, loadMaxExtra)
	for _, p := range append(rep.problems, rep.oversells...) {
		t.Error(p)
	}
	if rep.rss >= loadMaxRSS {
		t.Errorf("server peak RSS %d MiB, bound %d MiB", rep.rss>>20, loadMaxRSS>>20)
	}
	t.Log(rep)
	for _, class := range []string{"hot", "ip"} {
		if rep.byClass[class][429] == 0 && !t.Failed() {
			// Too slow a machine sends too little to exhaust a bucket: the
			// run proves nothing about contention there, and says so.
			t.Skipf("no 429 on the %s buckets: they never ran out (%d requests in %s), so the run proves nothing about contention there", class, rep.requests, rep.elapsed.Round(time.Millisecond))
		}
	}
}

// The oversell check of TestLoad can fail: the same load against the
// check-then-act fault (read and write in separate transactions) oversells
// the hot buckets, and the tally says so.
func TestLoadDetectsOversell(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and 1,000 clients")
	}
	// The fault's name as cmd/fakeserver's -fault flag takes it (package
	// fault imports this package, so its constant cannot be used here).
	const checkThenAct = "check-then-act"
	// No extra time: an oversell needs no bucket to run out, and the
	// fault's stale reads may keep the hot buckets from ever running out.
	rep := runLoad(t, checkThenAct, 2*time.Second, 0)
	if rep.oversold == 0 {
		t.Fatalf("no oversell found against %s: %v", checkThenAct, rep)
	}
	t.Logf("against %s: %v; first: %s", checkThenAct, rep, rep.oversells[0])
}

// loadReport is the tally of one load run.
type loadReport struct {
	clients, buckets int
	elapsed          time.Duration
	requests         int
	byStatus         map[int]int
	byClass          map[string]map[int]int // "hot", "cold", "ip" → status → count
	transportErrs    int
	windows          int // bucket windows with at least one 200
	hotWindows       int // of which on hot buckets
	oversold         int // 200s beyond one per distinct Remaining in [0, limit), per bucket window
	rides            int // rides the server stored
	rss              int64
	problems         []string // everything wrong but oversell
	oversells        []string
}

func (r *loadReport) String() string {
	var st []string
	for _, s := range slices.Sorted(maps.Keys(r.byStatus)) {
		st = append(st, fmt.Sprintf("%d: %d", s, r.byStatus[s]))
	}
	var cl []string
	for _, c := range []string{"hot", "cold", "ip"} {
		cl = append(cl, fmt.Sprintf("%s 200: %d 429: %d", c, r.byClass[c][200], r.byClass[c][429]))
	}
	return fmt.Sprintf("%d clients for %v (%d buckets, limit %d per %d s window): %d requests (%.0f/s), by status {%s} (%s), %d transport errors; "+
		"%d bucket windows with 200s (%d on hot buckets), oversold %d, rides stored %d; server peak RSS %.1f MiB",
		r.clients, r.elapsed.Round(time.Millisecond), r.buckets, loadLimit, loadWindowSecs, r.requests, float64(r.requests)/r.elapsed.Seconds(),
		strings.Join(st, ", "), strings.Join(cl, "; "), r.transportErrs, r.windows, r.hotWindows, r.oversold, r.rides, float64(r.rss)/(1<<20))
}

func (r *loadReport) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// runLoad runs the 1,000 clients against cmd/fakeserver with fault for at
// least duration (see the stop rule below) and tallies what came back.
// runLoad sends for duration, then on for up to extra until both the hot
// and the IP buckets have run out at least once.
func runLoad(t *testing.T, fault string, duration, extra time.Duration) *loadReport {
	t.Helper()
	clients := loadHotBuckets*loadHotClients + loadColdCount + loadIPAddrs*loadIPClients
	raiseFileLimit(t, uint64(2*clients+1024))

	db := filepath.Join(t.TempDir(), "load.db")
	srv := startLoadHelper(t, db, fault)

	// Buckets: hot device buckets, cold device buckets, then IP buckets.
	var buckets []string
	for i := 0; i < loadHotBuckets+loadColdCount; i++ {
		buckets = append(buckets, devBucket(50_000+i))
	}
	ipAddrs := make([]net.IP, loadIPAddrs)
	for i := range ipAddrs {
		ipAddrs[i] = net.IPv4(127, 77, 0, byte(i+1))
		buckets = append(buckets, "ip:"+ipAddrs[i].String())
	}
	tmpl, err := bodytmpl.New(bodytmpl.Default, nil)
	if err != nil {
		t.Fatal(err)
	}
	render := func(f bodytmpl.BucketField) []byte {
		b, err := tmpl.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var cs []*loadClient
	for b := 0; b < loadHotBuckets; b++ {
		for range loadHotClients {
			cs = append(cs, &loadClient{bucket: b, body: render(bodytmpl.Bucket(buckets[b])), http: loadHTTPClient(nil)})
		}
	}
	for i := range loadColdCount {
		b := loadHotBuckets + i
		cs = append(cs, &loadClient{bucket: b, body: render(bodytmpl.Bucket(buckets[b])), http: loadHTTPClient(nil)})
	}
	for a, ip := range ipAddrs {
		b := loadHotBuckets + loadColdCount + a
		for i := range loadIPClients {
			f := bodytmpl.Omit()
			if i%2 == 1 {
				f = bodytmpl.Bucket("not-a-device-bucket")
			}
			cs = append(cs, &loadClient{bucket: b, body: render(f), http: loadHTTPClient(ip)})
		}
	}

	// Every client connects (GET /healthz) before the barrier; all start
	// together and stop sending once duration has passed and both the hot
	// and the IP buckets have run out at least once (on a slow machine that
	// takes longer than duration), or at the hard deadline, finishing the
	// request in flight, so every request sent has a known outcome.
	results := make([][]loadResult, len(cs))
	errs := make([][]error, len(cs))
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	var minEnd, hardEnd time.Time
	var hot429, ip429 atomic.Bool
	running := func() bool {
		now := time.Now()
		return now.Before(minEnd) || (now.Before(hardEnd) && !(hot429.Load() && ip429.Load()))
	}
	for i, c := range cs {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			defer c.http.CloseIdleConnections()
			err := loadGet(c.http, srv.url+PathHealth)
			ready.Done()
			if err != nil {
				errs[i] = append(errs[i], fmt.Errorf("connect: %w", err))
				return
			}
			<-start
			for running() {
				res, err := loadPost(c.http, srv.url+PathRideSummary, c.body)
				if err != nil {
					errs[i] = append(errs[i], err)
					continue
				}
				results[i] = append(results[i], res)
				if res.status == http.StatusTooManyRequests {
					switch {
					case c.bucket < loadHotBuckets:
						hot429.Store(true)
					case c.bucket >= loadHotBuckets+loadColdCount:
						ip429.Store(true)
					}
				}
			}
		}()
	}
	ready.Wait()
	began := time.Now()
	minEnd, hardEnd = began.Add(duration), began.Add(duration+extra)
	close(start)
	done.Wait()
	rep := &loadReport{clients: len(cs), buckets: len(buckets), elapsed: time.Since(began), byStatus: map[int]int{},
		byClass: map[string]map[int]int{"hot": {}, "cold": {}, "ip": {}}}
	rep.rss = srv.stop(t)

	// Tally.
	type window struct {
		bucket int
		reset  int64
	}
	granted := map[window]map[int]int{} // Remaining → how many 200s carried it
	noHeaders, bad429 := 0, 0
	class := func(b int) string {
		switch {
		case b < loadHotBuckets:
			return "hot"
		case b < loadHotBuckets+loadColdCount:
			return "cold"
		}
		return "ip"
	}
	for i, c := range cs {
		for _, err := range errs[i] {
			rep.transportErrs++
			if rep.transportErrs <= 5 {
				rep.problem("client %d (bucket %s): %v", i, truncate(buckets[c.bucket], 20), err)
			}
		}
		for _, r := range results[i] {
			rep.requests++
			rep.byStatus[r.status]++
			rep.byClass[class(c.bucket)][r.status]++
			switch r.status {
			case 200:
				w := window{c.bucket, r.reset}
				if granted[w] == nil {
					granted[w] = map[int]int{}
				}
				granted[w][r.remaining]++
			case 429:
				if r.remaining != 0 {
					bad429++
				}
			}
			if r.remaining < 0 || r.reset <= 0 {
				noHeaders++
			}
		}
	}
	for w, rems := range granted {
		rep.windows++
		if w.bucket < loadHotBuckets {
			rep.hotWindows++
		}
		n, distinct := 0, 0 // 200s, and distinct Remaining values a correct limiter can give
		for rem, k := range rems {
			n += k
			if rem >= 0 && rem < loadLimit {
				distinct++
			}
			if k > 1 || rem < 0 || rem >= loadLimit {
				rep.oversells = append(rep.oversells, fmt.Sprintf("bucket %s window reset %d: Remaining %d granted %d times (limit %d)", truncate(buckets[w.bucket], 20), w.reset, rem, k, loadLimit))
			}
		}
		rep.oversold += n - distinct
		if n > loadLimit {
			rep.oversells = append(rep.oversells, fmt.Sprintf("bucket %s window reset %d: %d 200s, limit %d", truncate(buckets[w.bucket], 20), w.reset, n, loadLimit))
		}
	}
	for status, n := range rep.byStatus {
		if status != 200 && status != 429 {
			rep.problem("%d responses with status %d", n, status)
		}
	}
	if bad429 > 0 {
		rep.problem("%d 429s with X-RateLimit-Remaining other than 0", bad429)
	}
	if noHeaders > 0 {
		rep.problem("%d responses without X-RateLimit-Remaining/Reset", noHeaders)
	}
	if rep.transportErrs > 0 {
		rep.problem("%d transport errors", rep.transportErrs)
	}
	rep.rides = loadRides(t, db)
	if rep.transportErrs == 0 && rep.rides != rep.byStatus[200] {
		rep.problem("the server stored %d rides but acknowledged %d 200s", rep.rides, rep.byStatus[200])
	}
	return rep
}
