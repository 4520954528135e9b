// Package overload starves the machine rlspec runs on the way a shared CI
// runner is starved, so the self-test can show its verdicts hold there:
// CPU hogs beside rlspec (busy shell loops, processes of their own), a CPU
// quota on rlspec's own process (a cgroup's CFS quota: cgroup v2 cpu.max
// or v1 cpu.cfs_quota_us), and a per-request delay for the target, which
// the caller applies (fakeserver's Delay and DelayMax).
//
// What could not be applied (no cgroup file system, not root) is said in
// Load.Describe, never silently dropped.
package overload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Settings are the starvation asked for.
type Settings struct {
	Hogs int // busy processes beside rlspec; 0 none
	// CPU is the quota of rlspec's own process in cores (0.33: a third of a
	// core); 0 none.
	CPU float64
	// DelayMin and DelayMax bound the target's added delay per request,
	// drawn uniformly; zero none.
	DelayMin, DelayMax time.Duration
}

// Default is what OVERLOAD=default asks for: four hogs on top of the
// machine, a third of a core for rlspec, 20–200 ms per request.
var Default = Settings{Hogs: 4, CPU: 1.0 / 3, DelayMin: 20 * time.Millisecond, DelayMax: 200 * time.Millisecond}

// Zero reports whether s asks for nothing.
func (s Settings) Zero() bool { return s == Settings{} }

// String is s as Parse reads it.
func (s Settings) String() string {
	if s.Zero() {
		return "none"
	}
	return fmt.Sprintf("hogs=%d,cpu=%s,delay=%s-%s", s.Hogs, strconv.FormatFloat(s.CPU, 'g', 3, 64), s.DelayMin, s.DelayMax)
}

// Parse reads OVERLOAD: "", "none", "default", or comma-separated
// hogs=N, cpu=CORES, delay=MIN-MAX (Go durations), e.g.
// "hogs=6,cpu=0.5,delay=20ms-200ms".
func Parse(v string) (Settings, error) {
	v = strings.TrimSpace(v)
	switch v {
	case "", "none":
		return Settings{}, nil
	case "default":
		return Default, nil
	}
	var s Settings
	for _, part := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Settings{}, fmt.Errorf("%q is not key=value (hogs, cpu, delay)", part)
		}
		switch k {
		case "hogs":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > 64 {
				return Settings{}, fmt.Errorf("hogs=%q is not a count from 0 to 64", val)
			}
			s.Hogs = n
		case "cpu":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || f < 0.01 || f > 64 {
				return Settings{}, fmt.Errorf("cpu=%q is not a number of cores from 0.01 to 64", val)
			}
			s.CPU = f
		case "delay":
			lo, hi, _ := strings.Cut(val, "-")
			if hi == "" {
				hi = lo
			}
			a, err1 := time.ParseDuration(lo)
			b, err2 := time.ParseDuration(hi)
			if err := errors.Join(err1, err2); err != nil || a < 0 || b < a || b > time.Minute {
				return Settings{}, fmt.Errorf("delay=%q is not MIN-MAX, 0 <= MIN <= MAX <= 1m (e.g. 20ms-200ms)", val)
			}
			s.DelayMin, s.DelayMax = a, b
		default:
			return Settings{}, fmt.Errorf("%q is not one of hogs, cpu, delay", k)
		}
	}
	return s, nil
}
