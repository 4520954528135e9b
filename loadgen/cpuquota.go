package loadgen

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// cgroupCPUQuota returns the CPU bandwidth limit, in CPUs, that the cgroups
// of this process impose: the smallest quota/period of its cgroup and of
// every ancestor up to the hierarchy's mount, in cgroup v2 (cpu.max) and in
// the v1 cpu controller (cpu.cfs_quota_us / cpu.cfs_period_us). ok is false
// where no limit is set or none can be read. fsys is the root file system
// ("proc/self/cgroup", "proc/self/mountinfo", the cgroup mounts).
func cgroupCPUQuota(fsys fs.FS) (cpus float64, ok bool) {
	cg, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	mi, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return 0, false
	}
	mounts := cgroupMounts(mi)
	cpus = math.Inf(1)
	sc := bufio.NewScanner(bytes.NewReader(cg))
	for sc.Scan() {
		// hierarchy-ID:controllers:path; v2's is "0::path".
		id, rest, ok1 := strings.Cut(sc.Text(), ":")
		controllers, cgPath, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			continue
		}
		v2 := id == "0" && controllers == ""
		if !v2 && !hasController(controllers, "cpu") {
			continue
		}
		for _, m := range mounts {
			if m.v2 != v2 || (!v2 && !hasController(m.options, "cpu")) {
				continue
			}
			if q, found := quotaUpTree(fsys, m, cgPath); found {
				cpus = math.Min(cpus, q)
			}
		}
	}
	return cpus, !math.IsInf(cpus, 1)
}

// cgroupMount is a cgroup file system of mountinfo: the hierarchy's root
// it shows, where it is mounted, its super options (v1: the controllers).
type cgroupMount struct {
	root, point, options string
	v2                   bool
}

// cgroupMounts reads the cgroup and cgroup2 mounts of a mountinfo file.
func cgroupMounts(mountinfo []byte) []cgroupMount {
	var ms []cgroupMount
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		// ID parent major:minor root point options [optional...] - fstype source super-options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 || (g[0] != "cgroup" && g[0] != "cgroup2") {
			continue
		}
		ms = append(ms, cgroupMount{root: unescapeMountinfo(f[3]), point: unescapeMountinfo(f[4]), options: g[2], v2: g[0] == "cgroup2"})
	}
	return ms
}

// quotaUpTree reads the limit of cgPath and of its ancestors in mount m and
// returns the smallest.
func quotaUpTree(fsys fs.FS, m cgroupMount, cgPath string) (float64, bool) {
	root := path.Clean(m.root)
	rel, ok := strings.CutPrefix(path.Clean(cgPath), root)
	if !ok || (root != "/" && rel != "" && rel[0] != '/') {
		return 0, false // this process's cgroup is not under what the mount shows
	}
	best, found := math.Inf(1), false
	for dir := path.Join(m.point, rel); ; dir = path.Dir(dir) {
		if q, ok := readQuota(fsys, strings.TrimPrefix(dir, "/"), m.v2); ok && q < best {
			best, found = q, true
		}
		if dir == path.Clean(m.point) || dir == "/" || dir == "." {
			return best, found
		}
	}
}

// readQuota reads one cgroup directory's limit in CPUs.
func readQuota(fsys fs.FS, dir string, v2 bool) (float64, bool) {
	if v2 {
		b, err := fs.ReadFile(fsys, path.Join(dir, "cpu.max"))
		if err != nil {
			return 0, false
		}
		quota, period, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		return quotaOver(quota, period)
	}
	q, err := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_quota_us"))
	if err != nil {
		return 0, false
	}
	p, err := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_period_us"))
	if err != nil {
		return 0, false
	}
	return quotaOver(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

// quotaOver is quota/period in CPUs; "max" or a negative quota is no limit.
func quotaOver(quota, period string) (float64, bool) {
	q, err := strconv.ParseInt(quota, 10, 64)
	if err != nil || q <= 0 {
		return 0, false
	}
	p, err := strconv.ParseInt(period, 10, 64)
	if err != nil || p <= 0 {
		return 0, false
	}
	return float64(q) / float64(p), true
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
