package fakeserver

import (
	"bufio"
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The load test's server process and clients (load_test.go).

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
