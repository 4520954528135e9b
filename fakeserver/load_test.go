package fakeserver

import (
	"bufio"
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// loadServer is the cmd/fakeserver process under load.
type loadServer struct {
	cmd *exec.Cmd
	out *bufio.Reader
	url string
}

// startLoadHelper builds cmd/fakeserver (as the image does: CGO_ENABLED=0,
// whatever flags the test binary has, so -race does not inflate its memory)
// and starts it on a random loopback port with the load test's limit and
// window and the given fault.
func startLoadHelper(t *testing.T, db string, fault string) *loadServer {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	build := exec.Command("go", "build", "-o", bin, "github.com/rlspec/rlspec/cmd/fakeserver")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build cmd/fakeserver: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-listen-addr=127.0.0.1:0", "-db-path="+db,
		"-limit="+strconv.Itoa(loadLimit), "-window-seconds="+strconv.Itoa(loadWindowSecs), "-fault="+fault)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &loadServer{cmd: cmd, out: bufio.NewReader(stderr)}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_, _ = io.Copy(io.Discard, s.out)
			_ = cmd.Wait()
		}
	})
	line, err := s.out.ReadString('\n')
	m := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("fakeserver did not start: %q %v", line, err)
	}
	s.url = "http://" + m[1]
	return s
}

// stop reads the server's peak RSS (VmHWM), stops it with SIGTERM and
// returns the larger of VmHWM and the kernel's ru_maxrss after exit, in
// bytes.
func (s *loadServer) stop(t *testing.T) int64 {
	t.Helper()
	hwm, err := vmHWM(s.cmd.Process.Pid)
	if err != nil {
		t.Errorf("read peak RSS: %v", err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	_, _ = io.Copy(io.Discard, s.out) // its log, until it exits
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("fakeserver exit: %v", err)
	}
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		hwm = max(hwm, ru.Maxrss<<10) // KiB on Linux
	}
	return hwm
}

// vmHWM is a process's peak resident set size from /proc/<pid>/status.
func vmHWM(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("VmHWM %q: %w", v, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// raiseFileLimit raises the soft RLIMIT_NOFILE to at least n (up to the
// hard limit); the server process inherits it.
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatalf("getrlimit: %v", err)
	}
	if rl.Cur >= n {
		return
	}
	if rl.Max < n {
		t.Fatalf("RLIMIT_NOFILE hard limit %d is below the %d descriptors 1,000 clients and their server need", rl.Max, n)
	}
	old := rl.Cur
	rl.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatalf("setrlimit: %v", err)
	}
	t.Cleanup(func() {
		rl.Cur = old
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl)
	})
}

// loadHTTPClient is one client's HTTP client: one keep-alive connection,
// from src when it is not nil.
func loadHTTPClient(src net.IP) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if src != nil {
		d.LocalAddr = &net.TCPAddr{IP: src}
	}
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DialContext:         d.DialContext,
			MaxIdleConnsPerHost: 1,
			MaxConnsPerHost:     1,
			DisableCompression:  true,
		},
	}
}

func loadGet(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return nil
}

func loadPost(c *http.Client, url string, body []byte) (loadResult, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return loadResult{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return loadResult{}, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return loadResult{}, fmt.Errorf("read response: %w", err)
	}
	r := loadResult{status: resp.StatusCode, remaining: -1}
	if v, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining")); err == nil {
		r.remaining = v
	}
	if v, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		r.reset = v
	}
	return r, nil
}

// loadRides counts the rides the server stored.
func loadRides(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ride_ingest`).Scan(&n); err != nil {
		t.Fatalf("count rides: %v", err)
	}
	return n
}
