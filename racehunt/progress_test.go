package racehunt

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault"
)

// TestProgressLines: one line per interval of a fake clock, with the
// workloads done of the total, the requests, the elapsed time and the time
// left at the pace so far; none within an interval.
func TestProgressLines(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	var lines []string
	p := newProgress(10*time.Second, 100, func() time.Time { return now }, func(f string, a ...any) { lines = append(lines, fmt.Sprintf(f, a...)) })
	for _, step := range []struct {
		after     time.Duration
		done, req int
		shrinking bool
	}{{5 * time.Second, 10, 100, false}, {5 * time.Second, 20, 200, false}, {time.Second, 21, 210, false}, {10 * time.Second, 30, 300, true}} {
		now = now.Add(step.after)
		p.tick(step.done, step.req, step.shrinking)
	}
	want := []string{"progress: 20/100 workloads, 200 requests, 10s, about 40s left", "progress: 30/100 workloads, 300 requests, 21s, shrinking a failing workload"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestHuntSaysHowFarItIs: a hunt writes its progress lines to Log.
func TestHuntSaysHowFarItIs(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	logf := func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(f, a...))
	}
	o := HuntOptions{Checks: 3, Repeat: 1, ShrinkTime: time.Second, NoFailFile: true, ReportDir: t.TempDir(), Log: logf, Progress: time.Nanosecond}
	if _, err := Hunt(context.Background(), startEmbedded(t, fault.None, 1), o); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(lines, "\n"); !strings.Contains(got, "progress: 3/3 workloads, ") {
		t.Errorf("no progress line for the last workload:\n%s", got)
	}
}
