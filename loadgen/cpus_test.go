package loadgen

import (
	"testing"
	"testing/fstest"
	"time"
)

func TestCountCPUList(t *testing.T) {
	for in, want := range map[string]int{"0": 1, "0-1\n": 2, "0-3,8,10-11": 7, "5": 1} {
		if got, err := countCPUList(in); err != nil || got != want {
			t.Errorf("countCPUList(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a", "3-1", "0-", "-1", "0,,1"} {
		if n, err := countCPUList(in); err == nil {
			t.Errorf("countCPUList(%q) = %d, want an error", in, n)
		}
	}
}

func TestAutoEngineFollowsReservedCPUs(t *testing.T) {
	d, err := NewHTTPDialer("http://127.0.0.1:1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	render := func() ([][]byte, error) { return [][]byte{[]byte("x")}, nil }
	for _, reserved := range []bool{false, true} {
		want := EngineGoroutines
		if reserved && epollAvailable {
			want = EngineEpoll
		}
		a, err := NewAttacker(d, render, WithRate(0), WithConnections(2), withCPUsReserved(func() bool { return reserved }))
		if err != nil {
			t.Fatal(err)
		}
		if a.meta.Engine != want {
			t.Errorf("reserved CPUs %v: engine %q, want %q", reserved, a.meta.Engine, want)
		}
		// Open loop keeps the goroutine engine whatever the CPUs.
		o, err := NewAttacker(d, render, WithRate(100), withCPUsReserved(func() bool { return reserved }))
		if err != nil {
			t.Fatal(err)
		}
		if o.meta.Engine != EngineGoroutines {
			t.Errorf("open loop, reserved CPUs %v: engine %q", reserved, o.meta.Engine)
		}
	}
}

// Mount tables as /proc/self/mountinfo shows them.
const (
	mountinfoV1 = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
33 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
`
	mountinfoV2 = `30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate
`
	// A container's view: the mount shows the host's /kubepods/pod1 as its root.
	mountinfoV2Container = `40 30 0:26 /kubepods/pod1 /sys/fs/cgroup ro,relatime - cgroup2 cgroup2 rw
`
)

func TestCgroupCPUQuota(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  float64 // 0: no limit
	}{
		{"v2 limited", map[string]string{
			"proc/self/cgroup":          "0::/gen\n",
			"proc/self/mountinfo":       mountinfoV2,
			"sys/fs/cgroup/gen/cpu.max": "50000 100000\n",
			"sys/fs/cgroup/cpu.max":     "max 100000\n",
		}, 0.5},
		{"v2 unlimited", map[string]string{
			"proc/self/cgroup":          "0::/gen\n",
			"proc/self/mountinfo":       mountinfoV2,
			"sys/fs/cgroup/gen/cpu.max": "max 100000\n",
		}, 0},
		{"v2 ancestor's limit is the smaller", map[string]string{
			"proc/self/cgroup":          "0::/a/b\n",
			"proc/self/mountinfo":       mountinfoV2,
			"sys/fs/cgroup/a/b/cpu.max": "300000 100000\n",
			"sys/fs/cgroup/a/cpu.max":   "150000 100000\n",
		}, 1.5},
		{"v2 in a container, path under the mount's root", map[string]string{
			"proc/self/cgroup":         "0::/kubepods/pod1/c1\n",
			"proc/self/mountinfo":      mountinfoV2Container,
			"sys/fs/cgroup/c1/cpu.max": "25000 100000\n",
		}, 0.25},
		{"v2 in a container, cgroup outside the mount's root", map[string]string{
			"proc/self/cgroup":           "0::/kubepods/pod10/c1\n",
			"proc/self/mountinfo":        mountinfoV2Container,
			"sys/fs/cgroup/0/c1/cpu.max": "25000 100000\n",
			"sys/fs/cgroup/c1/cpu.max":   "25000 100000\n",
		}, 0},
		{"v1 cpu,cpuacct", map[string]string{
			"proc/self/cgroup":                              "4:memory:/x\n3:cpu,cpuacct:/x\n0::/\n",
			"proc/self/mountinfo":                           mountinfoV1,
			"sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us":  "3000\n",
			"sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_period_us": "10000\n",
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us":    "-1\n",
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us":   "100000\n",
		}, 0.3},
		{"v1 no quota", map[string]string{
			"proc/self/cgroup":                            "3:cpu,cpuacct:/\n",
			"proc/self/mountinfo":                         mountinfoV1,
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us":  "-1\n",
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
		}, 0},
		{"garbage", map[string]string{
			"proc/self/cgroup":          "0::/gen\n",
			"proc/self/mountinfo":       mountinfoV2,
			"sys/fs/cgroup/gen/cpu.max": "lots\n",
		}, 0},
		{"nothing readable", map[string]string{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			got, limited := cgroupCPUQuota(fsys)
			if want := tc.want != 0; limited != want || got != tc.want && want {
				t.Errorf("cgroupCPUQuota = %v, %v; want %v, %v", got, limited, tc.want, want)
			}
		})
	}
}

func TestCPUsReserved(t *testing.T) {
	fsys := func(quota string) fstest.MapFS {
		m := fstest.MapFS{
			"sys/devices/system/cpu/online": {Data: []byte("0-3\n")},
			"proc/self/cgroup":              {Data: []byte("0::/gen\n")},
			"proc/self/mountinfo":           {Data: []byte(mountinfoV2)},
		}
		if quota != "" {
			m["sys/fs/cgroup/gen/cpu.max"] = &fstest.MapFile{Data: []byte(quota)}
		}
		return m
	}
	for _, tc := range []struct {
		name     string
		fsys     fstest.MapFS
		affinity int
		want     bool
	}{
		{"every CPU", fsys(""), 4, false},
		{"taskset to 2 of 4", fsys(""), 2, true},
		{"taskset to 2, quota of 2", fsys("200000 100000"), 2, true},
		{"taskset to 2, quota of 1.5", fsys("150000 100000"), 2, false},
		{"taskset to 1, quota of 0.3", fsys("30000 100000"), 1, false},
		{"online CPUs unreadable", fstest.MapFS{}, 1, false},
	} {
		if got := cpusReserved(tc.fsys, tc.affinity); got != tc.want {
			t.Errorf("%s: cpusReserved = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestUnescapeMountinfo(t *testing.T) {
	for in, want := range map[string]string{`/a\040b`: "/a b", `/plain`: "/plain", `/end\04`: `/end\04`, `\134x`: `\x`} {
		if got := unescapeMountinfo(in); got != want {
			t.Errorf("unescapeMountinfo(%q) = %q, want %q", in, got, want)
		}
	}
}
