package racehunt

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// rapid's plumbing for Hunt: its process-wide flags, the testing.TB it
// runs a workload under outside `go test`, and reading its report.

var (
	seedRE     = regexp.MustCompile(`-rapid\.seed=(\d+)`)
	failfileRE = regexp.MustCompile(`-rapid\.failfile="([^"]+)"`)
	passedRE   = regexp.MustCompile(`passed (\d+) tests|after (\d+) tests`)
)

func parsePassed(report string, logs []string) int {
	for _, s := range append([]string{report}, logs...) {
		if m := passedRE.FindStringSubmatch(s); m != nil {
			n, _ := strconv.Atoi(m[1] + m[2])
			return n
		}
	}
	return 0
}

// setRapidFlags sets rapid's command-line settings (it reads them from the
// process-wide flag set) and returns a function restoring them. It locks
// rapidMu until restore is called. Outside `go test` it initialises the
// testing flags rapid consults (testing.Short).
func setRapidFlags(values map[string]string) (func(), error) {
	rapidMu.Lock()
	if flag.Lookup("test.short") == nil {
		testing.Init()
	}
	if !flag.Parsed() {
		if err := flag.CommandLine.Parse(nil); err != nil {
			rapidMu.Unlock()
			return nil, fmt.Errorf("init flags: %w", err)
		}
	}
	old := map[string]string{}
	for k, v := range values {
		f := flag.Lookup(k)
		if f == nil {
			rapidMu.Unlock()
			return nil, fmt.Errorf("rapid has no flag -%s", k)
		}
		old[k] = f.Value.String()
		if err := flag.Set(k, v); err != nil {
			rapidMu.Unlock()
			return nil, fmt.Errorf("set -%s: %w", k, err)
		}
	}
	return func() {
		for k, v := range old {
			_ = flag.Set(k, v)
		}
		rapidMu.Unlock()
	}, nil
}

// huntTB is rapid's TB outside `go test`: it records what rapid says.
// rapid calls FailNow only as its very last step, so returning is safe.
type huntTB struct {
	name   string
	mu     sync.Mutex
	failed bool
	errs   []string
	log    []string
}

var _ rapid.TB = (*huntTB)(nil)

func (t *huntTB) Helper()      {}
func (t *huntTB) Name() string { return t.name }
func (t *huntTB) Logf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.log = append(t.log, fmt.Sprintf(format, args...))
}
func (t *huntTB) Log(args ...any)                  { t.Logf("%s", fmt.Sprint(args...)) }
func (t *huntTB) Skipf(format string, args ...any) { t.Logf("skip: "+format, args...) }
func (t *huntTB) Skip(args ...any)                 { t.Log(args...) }
func (t *huntTB) SkipNow()                         {}
func (t *huntTB) Errorf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failed = true
	t.errs = append(t.errs, fmt.Sprintf(format, args...))
}
func (t *huntTB) Error(args ...any)                 { t.Errorf("%s", fmt.Sprint(args...)) }
func (t *huntTB) Fatalf(format string, args ...any) { t.Errorf(format, args...) }
func (t *huntTB) Fatal(args ...any)                 { t.Error(args...) }
func (t *huntTB) FailNow()                          { t.Fail() }
func (t *huntTB) Fail() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failed = true
}
func (t *huntTB) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

func (t *huntTB) report() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.errs, "\n")
}

func (t *huntTB) logs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.log...)
}
