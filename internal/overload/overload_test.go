package overload

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := map[string]Settings{
		"":                                {},
		"none":                            {},
		"default":                         Default,
		"hogs=6,cpu=0.5,delay=20ms-200ms": {Hogs: 6, CPU: 0.5, DelayMin: 20 * time.Millisecond, DelayMax: 200 * time.Millisecond},
		"delay=50ms":                      {DelayMin: 50 * time.Millisecond, DelayMax: 50 * time.Millisecond},
	}
	for in, want := range good {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"hogs", "hogs=-1", "hogs=x", "cpu=0", "cpu=lots", "delay=200ms-20ms", "delay=2h", "fans=3"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if s, _ := Parse(Default.String()); s.Hogs != Default.Hogs || s.DelayMax != Default.DelayMax {
		t.Errorf("Default.String() %q does not read back", Default.String())
	}
}

// TestHogsRunAndStop: the hogs are processes that run until Stop.
func TestHogsRunAndStop(t *testing.T) {
	l, err := Start(context.Background(), Settings{Hogs: 2})
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{}
	for _, h := range l.hogs {
		pids = append(pids, h.Process.Pid)
	}
	if l.Running() != 2 || !strings.Contains(l.Describe(), "2 CPU hogs") {
		t.Fatalf("running %d, %q", l.Running(), l.Describe())
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err != nil {
			t.Errorf("hog %d is not running: %v", pid, err)
		}
	}
	if err := l.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("hog %d still runs after Stop", pid)
		}
	}
}

// TestQuotaThrottles: under a tenth of a core, spinning for a second of
// CPU gets the process throttled (the cgroup's own count says so), and Stop
// puts it back where it was.
func TestQuotaThrottles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the CPU quota needs root to make a cgroup")
	}
	before, _ := os.ReadFile("/proc/self/cgroup")
	l, err := Start(context.Background(), Settings{CPU: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if l.quota == nil {
		t.Skipf("no quota on this machine: %s", l.Describe())
	}
	dir := l.quota.dir
	spin(100 * time.Millisecond)
	stat, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	if !throttled(string(stat)) {
		t.Errorf("not throttled under 0.1 core: %s", stat)
	}
	if err := l.Stop(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile("/proc/self/cgroup"); string(after) != string(before) {
		t.Errorf("cgroups after Stop:\n%s\nbefore:\n%s", after, before)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s left behind", dir)
	}
}

// spin burns d of this thread's CPU time.
func spin(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	start := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	for {
		_ = syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
		if time.Duration(ru.Utime.Nano()+ru.Stime.Nano())-start >= d {
			return
		}
	}
}

// throttled reads nr_throttled (v1, v2) from a cpu.stat.
func throttled(stat string) bool {
	for _, line := range strings.Split(stat, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "nr_throttled" && f[1] != "0" {
			return true
		}
	}
	return false
}
