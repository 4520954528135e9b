package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// freePort asks the OS for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// shell runs cmd with sh -c in dir with env added to the driver's own
// environment, and returns its combined output.
func shell(ctx context.Context, dir, cmd string, env []string) (string, error) {
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Dir, c.Env = dir, append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s: %w: %s", cmd, err, tail(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// tail is the last line of out that says anything.
func tail(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return oneLine(lines[len(lines)-1])
}

// proc is a process the driver started, in a process group of its own so
// that stopping it stops what its shell started.
type proc struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// startProc starts cmd (sh -c) in dir, its output to logPath.
func startProc(dir, cmd, logPath string, env []string) (*proc, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd, err)
	}
	c := exec.Command("sh", "-c", cmd)
	c.Dir, c.Env, c.Stdout, c.Stderr = dir, append(os.Environ(), env...), f, f
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", cmd, err)
	}
	p := &proc{cmd: c, log: logPath, done: make(chan struct{})}
	go func() { _ = c.Wait(); f.Close(); close(p.done) }()
	return p, nil
}

// stop ends the process group: SIGTERM, then SIGKILL after 5 s.
func (p *proc) stop() {
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
}

// logTail is the last line of the process's log.
func (p *proc) logTail() string {
	b, _ := os.ReadFile(p.log)
	return tail(string(b))
}

// waitHTTP polls url until it answers HTTP with any status, the process
// exits, or 60 s pass.
func (p *proc) waitHTTP(url string) error {
	return p.waitFor(url, func() bool {
		resp, err := (&http.Client{Timeout: time.Second}).Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return true
	})
}

// waitTCP polls addr until it accepts a connection.
func (p *proc) waitTCP(addr string) error {
	return p.waitFor(addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
}

func (p *proc) waitFor(what string, ok func() bool) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before %s answered: %s", p.cmd.Args[2], what, p.logTail())
		default:
		}
		if ok() {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // polling a deadline, not synchronising
	}
	return fmt.Errorf("%s did not answer within 60 s: %s", what, p.logTail())
}

// ensureRuntime installs the target's Debian packages when one is missing
// (apt-get, as root) and reports "no <runtime>" when it is still missing.
func ensureRuntime(ctx context.Context, t Target, aptUpdated *bool) (skip string, err error) {
	var missing []string
	for _, pkg := range strings.Fields(t.Env[keyApt]) {
		if out, err := exec.Command("dpkg-query", "-W", "-f=${Status}", pkg).Output(); err != nil || !strings.Contains(string(out), "ok installed") {
			missing = append(missing, pkg)
		}
	}
	if len(missing) > 0 {
		if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
			return "no " + strings.Join(missing, ", ") + " (apt-get install as root)", nil
		}
		if !*aptUpdated {
			if _, err := shell(ctx, t.Limiter, "apt-get update -qq", nil); err != nil {
				return "", err
			}
			*aptUpdated = true
		}
		if _, err := shell(ctx, t.Limiter, "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "+strings.Join(missing, " "), nil); err != nil {
			return "no " + strings.Join(missing, ", ") + ": " + err.Error(), nil
		}
	}
	if rt := t.Env[keyRuntime]; rt != "" {
		if _, err := exec.LookPath(rt); err != nil {
			return "no " + filepath.Base(rt), nil
		}
	}
	return "", nil
}

// Running is a started target: its store and instances.
type Running struct {
	URLs  []string
	procs []*proc
}

// Stop ends every process of the target, instances first.
func (r *Running) Stop() {
	for i := len(r.procs) - 1; i >= 0; i-- {
		r.procs[i].stop()
	}
}

// start builds (INTEROP_BUILD), starts the store (INTEROP_STORE) and the
// instances (INTEROP_START), each on a port from the OS, and waits until
// they answer.
func start(ctx context.Context, t Target, work string) (*Running, error) {
	caseDir, err := filepath.Abs(t.Dir) // the commands run in the limiter's folder
	if err != nil {
		return nil, fmt.Errorf("case folder: %w", err)
	}
	env := append(t.Settings(), "BIN="+filepath.Join(work, "server"), "CASE_DIR="+caseDir, "WORK_DIR="+work)
	if b := t.Env[keyBuild]; b != "" {
		if _, err := shell(ctx, t.Limiter, b, env); err != nil {
			return nil, fmt.Errorf("build: %w", err)
		}
	}
	r := &Running{}
	if s := t.Env[keyStore]; s != "" {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		env = append(env, fmt.Sprintf("STORE_PORT=%d", port))
		p, err := startProc(t.Limiter, s, filepath.Join(work, "store.log"), env)
		if err != nil {
			return nil, err
		}
		r.procs = append(r.procs, p)
		if err := p.waitTCP(fmt.Sprintf("127.0.0.1:%d", port)); err != nil {
			r.Stop()
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	n := 1
	if s := t.Env[keyInstances]; s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
			return nil, fmt.Errorf("%s %q is not a positive number", keyInstances, s)
		}
	}
	for i := range n {
		port, err := freePort()
		if err != nil {
			r.Stop()
			return nil, err
		}
		p, err := startProc(t.Limiter, t.Env[keyStart], filepath.Join(work, fmt.Sprintf("server%d.log", i)), append(env, fmt.Sprintf("PORT=%d", port)))
		if err != nil {
			r.Stop()
			return nil, err
		}
		r.procs = append(r.procs, p)
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		if err := p.waitHTTP(base + cmp.Or(t.Env[keyReady], "/")); err != nil {
			r.Stop()
			return nil, errors.Join(fmt.Errorf("instance %d", i), err)
		}
		r.URLs = append(r.URLs, base)
	}
	return r, nil
}
