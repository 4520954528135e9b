package overload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// Load is starvation in force until Stop.
type Load struct {
	s     Settings
	hogs  []*exec.Cmd
	quota *quota
	notes []string // what could not be applied, and why
}

// Start applies s: the hogs are started and rlspec's process is put under
// its CPU quota. A quota the machine cannot give is a note, not an error;
// a hog that cannot start is an error.
func Start(ctx context.Context, s Settings) (*Load, error) {
	l := &Load{s: s}
	for range s.Hogs {
		cmd := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return nil, errors.Join(fmt.Errorf("start a CPU hog: %w", err), l.Stop())
		}
		l.hogs = append(l.hogs, cmd)
	}
	if s.CPU > 0 {
		q, err := limitCPU(os.Getpid(), s.CPU)
		if err != nil {
			l.notes = append(l.notes, fmt.Sprintf("cpu=%g not applied: %v", s.CPU, err))
		}
		l.quota = q
	}
	return l, nil
}

// Stop ends the hogs and lifts the quota.
func (l *Load) Stop() error {
	var errs []error
	for _, h := range l.hogs {
		if h.Process != nil {
			_ = syscall.Kill(-h.Process.Pid, syscall.SIGKILL)
			_ = h.Wait()
		}
	}
	l.hogs = nil
	if l.quota != nil {
		errs = append(errs, l.quota.lift())
		l.quota = nil
	}
	return errors.Join(errs...)
}

// Describe says what is in force: "4 CPU hogs, rlspec at 0.33 of a core
// (cgroup v1), target delay 20ms-200ms", with what could not be applied.
func (l *Load) Describe() string {
	var parts []string
	if n := len(l.hogs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d CPU hogs", n))
	}
	if l.quota != nil {
		parts = append(parts, fmt.Sprintf("rlspec at %.2g of a core (%s)", l.s.CPU, l.quota.kind))
	}
	if l.s.DelayMax > 0 {
		parts = append(parts, fmt.Sprintf("target delay %s-%s per request", l.s.DelayMin, l.s.DelayMax))
	}
	parts = append(parts, l.notes...)
	if len(parts) == 0 {
		return "no overload"
	}
	return strings.Join(parts, ", ")
}

// Running is how many hogs are running (for tests).
func (l *Load) Running() int { return len(l.hogs) }
