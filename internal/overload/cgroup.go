package overload

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cgroupRoot is where the cgroup file systems are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// period is the CFS period the quota is a share of.
const period = 100000 // µs

// quota is a cgroup rlspec's process was moved into, and the one to move it
// back to.
type quota struct {
	kind     string // "cgroup v2" or "cgroup v1"
	dir      string // the cgroup made for the quota
	pid      int
	original string
}

// limitCPU moves process pid into a new cgroup whose CFS quota is cores of
// a CPU: cgroup v2 (cpu.max) when the unified hierarchy has the cpu
// controller, else v1's cpu hierarchy (cpu.cfs_quota_us).
func limitCPU(pid int, cores float64) (*quota, error) {
	us := int(cores * period)
	name := fmt.Sprintf("rlspec-overload-%d", pid)
	if ctl, err := os.ReadFile(filepath.Join(cgroupRoot, "cgroup.controllers")); err == nil && strings.Contains(string(ctl), "cpu") {
		cur, err := ownCgroup(pid, "")
		if err != nil {
			return nil, err
		}
		q := &quota{kind: "cgroup v2", dir: filepath.Join(cgroupRoot, name), pid: pid, original: filepath.Join(cgroupRoot, cur, "cgroup.procs")}
		return q, q.apply("cpu.max", fmt.Sprintf("%d %d", us, period))
	}
	base := filepath.Join(cgroupRoot, "cpu")
	if _, err := os.Stat(filepath.Join(base, "cpu.cfs_quota_us")); err != nil {
		return nil, errors.New("no cgroup cpu controller is mounted")
	}
	cur, err := ownCgroup(pid, "cpu")
	if err != nil {
		return nil, err
	}
	q := &quota{kind: "cgroup v1", dir: filepath.Join(base, name), pid: pid, original: filepath.Join(base, cur, "cgroup.procs")}
	if err := q.apply("cpu.cfs_period_us", strconv.Itoa(period)); err != nil {
		return nil, err
	}
	return q, q.write("cpu.cfs_quota_us", strconv.Itoa(us))
}

// apply makes the cgroup, writes its limit and moves the process in.
func (q *quota) apply(file, value string) error {
	if err := os.Mkdir(q.dir, 0o755); err != nil && !os.IsExist(err) {
		return fmt.Errorf("make %s: %w", q.dir, err)
	}
	if err := q.write(file, value); err != nil {
		_ = os.Remove(q.dir)
		return err
	}
	if err := os.WriteFile(filepath.Join(q.dir, "cgroup.procs"), []byte(strconv.Itoa(q.pid)), 0o644); err != nil {
		_ = os.Remove(q.dir)
		return fmt.Errorf("move process %d into %s: %w", q.pid, q.dir, err)
	}
	return nil
}

func (q *quota) write(file, value string) error {
	if err := os.WriteFile(filepath.Join(q.dir, file), []byte(value), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// lift moves the process back where it was and removes the cgroup.
func (q *quota) lift() error {
	if err := os.WriteFile(q.original, []byte(strconv.Itoa(q.pid)), 0o644); err != nil {
		return fmt.Errorf("move process %d back: %w", q.pid, err)
	}
	if err := os.Remove(q.dir); err != nil {
		return fmt.Errorf("remove %s: %w", q.dir, err)
	}
	return nil
}

// ownCgroup is pid's cgroup path in the hierarchy of controller ("" the
// unified one), from /proc/<pid>/cgroup.
func ownCgroup(pid int, controller string) (string, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if controller == "" && parts[0] == "0" && parts[1] == "" {
			return parts[2], nil
		}
		for _, c := range strings.Split(parts[1], ",") {
			if controller != "" && c == controller {
				return parts[2], nil
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("process %d is in no %q cgroup", pid, controller)
}
