package loadgen

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// CPUsReserved reports whether this process has CPUs of its own: it may
// run on fewer CPUs than the machine has online — it was started under
// taskset or in a cpuset, so the operator gave the generator CPUs apart from
// the target's — and no cgroup CPU bandwidth limit (cpu.max, or v1's
// cpu.cfs_quota_us) holds it to less than those CPUs. EngineAuto then picks
// the epoll engine, whose briefly spinning event loops raise the throughput
// a target elsewhere reaches; sharing every CPU with the target, the same
// spinning would take CPU from it, and under a quota it would spend the
// generator's own budget: there the goroutine engine is faster.
// It reports false where the online CPUs cannot be read.
func CPUsReserved() bool {
	return cpusReserved(os.DirFS("/"), runtime.NumCPU()) // NumCPU is the affinity mask's size
}

// cpusReserved is CPUsReserved on fsys for a process allowed on affinity CPUs.
func cpusReserved(fsys fs.FS, affinity int) bool {
	b, err := fs.ReadFile(fsys, "sys/devices/system/cpu/online")
	if err != nil {
		return false
	}
	online, err := countCPUList(string(b))
	if err != nil || affinity >= online {
		return false
	}
	if quota, limited := cgroupCPUQuota(fsys); limited && quota < float64(affinity) {
		return false
	}
	return true
}

// countCPUList counts the CPUs of a kernel CPU list such as "0-3,8,10-11".
func countCPUList(s string) (int, error) {
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return 0, fmt.Errorf("cpu list %q: bad entry %q", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0, fmt.Errorf("cpu list %q: bad range %q", s, part)
			}
		}
		n += b - a + 1
	}
	return n, nil
}
