// Package pgcluster starts a throwaway PostgreSQL cluster from Debian's
// postgresql package for rlspec's own tests and for `make acceptance
// STORE=postgres`: initdb into a temporary directory, the server on a Unix
// socket in that directory and a free loopback port, removed on Close. No
// image is pulled and nothing outside the directory is touched.
//
// initdb refuses to run as root, so when the process is root the cluster's
// programs run as the unprivileged `postgres` user (or `nobody`), and the
// directory is handed to that user.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNotInstalled means no PostgreSQL server binaries were found.
var ErrNotInstalled = errors.New("PostgreSQL server not installed (apt-get install postgresql, or set PG_BINDIR to the directory of initdb and postgres)")

// Cluster is one running throwaway server.
type Cluster struct {
	dir    string // data directory's parent: data/, socket, log
	bin    string
	port   int
	cred   *syscall.Credential
	cmd    *exec.Cmd
	exited chan error
	opts   options
}

type options struct {
	startTimeout time.Duration
	settings     map[string]string
	bindir       string
	listen       netip.Addr   // also listen here (WithNetwork)
	trusted      netip.Prefix // and trust connections from here
}

// Option sets a default of Start.
type Option func(*options) error

// WithStartTimeout bounds initdb plus start-up (default 60s).
func WithStartTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("start timeout must be positive, got %s", d)
		}
		o.startTimeout = d
		return nil
	}
}

// WithSetting passes a server setting (-c name=value), e.g. max_connections.
func WithSetting(name, value string) Option {
	return func(o *options) error {
		if name == "" || strings.ContainsAny(name, "= \t\n") {
			return fmt.Errorf("bad setting name %q", name)
		}
		o.settings[name] = value
		return nil
	}
}

// WithNetwork also listens on addr and trusts connections from peers
// (superuser, no password): a server containers reach, e.g. on Docker's
// bridge gateway with its subnet. DSNAt names it at addr.
func WithNetwork(addr netip.Addr, peers netip.Prefix) Option {
	return func(o *options) error {
		if !addr.IsValid() || !peers.IsValid() {
			return fmt.Errorf("network %s for peers %s: not an address and a prefix", addr, peers)
		}
		o.listen, o.trusted = addr, peers.Masked()
		return nil
	}
}

// WithBinDir uses the server binaries in dir instead of searching for them.
func WithBinDir(dir string) Option {
	return func(o *options) error { o.bindir = dir; return nil }
}

// BinDir finds the directory holding initdb and postgres: PG_BINDIR, then
// the newest /usr/lib/postgresql/*/bin.
func BinDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return checkBinDir(d)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := checkBinDir(d); err == nil {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func majorOf(bindir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bindir)))
	return n
}

func checkBinDir(d string) (string, error) {
	for _, p := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(d, p)); err != nil {
			return "", fmt.Errorf("%w: %s has no %s", ErrNotInstalled, d, p)
		}
	}
	return d, nil
}

// Start runs initdb in a new temporary directory and starts the server.
// The caller must Close it; on error nothing is left behind.
func Start(ctx context.Context, opts ...Option) (_ *Cluster, err error) {
	o := options{startTimeout: 60 * time.Second, settings: map[string]string{}}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("pgcluster: %w", err)
		}
	}
	bin := o.bindir
	if bin == "" {
		if bin, err = BinDir(); err != nil {
			return nil, err
		}
	} else if bin, err = checkBinDir(bin); err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, opts: o}
	if c.dir, err = os.MkdirTemp("", "rlspec-pg-"); err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.Close())
		}
	}()
	if c.cred, err = runAs(); err != nil {
		return nil, err
	}
	if err = c.chown(c.dir); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.startTimeout)
	defer cancel()
	initdb := c.command(ctx, "initdb", "-D", c.DataDir(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgcluster: initdb: %w: %s", err, lastLines(string(out), 5))
	}
	if o.trusted.IsValid() {
		if err = c.trust(o.trusted); err != nil {
			return nil, err
		}
	}
	if c.port, err = freePort(); err != nil {
		return nil, err
	}
	if err = c.Restart(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Restart starts the server on the existing data directory (after Kill or
// Stop) and waits until it accepts connections.
func (c *Cluster) Restart(ctx context.Context) error {
	if c.cmd != nil {
		return errors.New("pgcluster: server already running")
	}
	listen := "127.0.0.1"
	if c.opts.listen.IsValid() {
		listen += "," + c.opts.listen.String()
	}
	args := []string{"-D", c.DataDir(), "-k", c.dir, "-p", strconv.Itoa(c.port), "-c", "listen_addresses=" + listen}
	names := make([]string, 0, len(c.opts.settings))
	for n := range c.opts.settings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args = append(args, "-c", n+"="+c.opts.settings[n])
	}
	logf, err := os.OpenFile(filepath.Join(c.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	defer logf.Close()
	cmd := c.command(context.Background(), "postgres", args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgcluster: start postgres: %w", err)
	}
	c.cmd, c.exited = cmd, make(chan error, 1)
	go func() { c.exited <- cmd.Wait() }()
	return c.waitReady(ctx)
}

// waitReady polls the server's port until it answers or ctx ends.
func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.startTimeout)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := ping(ctx, c.DSN("postgres")); err == nil {
			return nil
		}
		select {
		case err := <-c.exited:
			c.cmd = nil
			return fmt.Errorf("pgcluster: postgres exited during start-up (%v): %s", err, c.LogTail(10))
		case <-ctx.Done():
			return fmt.Errorf("pgcluster: postgres not ready: %w: %s", ctx.Err(), c.LogTail(10))
		case <-tick.C:
		}
	}
}

// Kill sends SIGKILL to the postmaster (a crash: no shutdown checkpoint)
// and waits for it to exit. Its backends notice and exit on their own.
func (c *Cluster) Kill() error { return c.signal(syscall.SIGKILL) }

// Stop shuts the server down fast (SIGINT) and waits for it to exit.
func (c *Cluster) Stop() error { return c.signal(syscall.SIGINT) }

func (c *Cluster) signal(sig syscall.Signal) error {
	if c.cmd == nil {
		return nil
	}
	_ = c.cmd.Process.Signal(sig)
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd = nil
	if sig == syscall.SIGKILL {
		// Orphaned backends keep the shared memory segment; wait until the
		// lock file's postmaster is gone so Restart does not race them.
		return waitNoBackends(c.DataDir(), 30*time.Second)
	}
	return nil
}

// Close stops the server and removes the directory.
func (c *Cluster) Close() error {
	err := c.Stop()
	if c.dir != "" {
		err = errors.Join(err, os.RemoveAll(c.dir))
	}
	return err
}

// DataDir is the cluster's data directory.
func (c *Cluster) DataDir() string { return filepath.Join(c.dir, "data") }

// Port is the server's loopback TCP port.
func (c *Cluster) Port() int { return c.port }

// DSN is a connection string for database db over TCP on loopback as the
// superuser postgres (trust authentication: no password to leak).
func (c *Cluster) DSN(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// DSNAt is DSN with the server reached at host (an address of WithNetwork).
func (c *Cluster) DSNAt(host netip.Addr, db string) string {
	return fmt.Sprintf("postgres://postgres@%s/%s?sslmode=disable", netip.AddrPortFrom(host, uint16(c.port)), db)
}

// trust lets peers connect as anyone without a password (pg_hba.conf).
func (c *Cluster) trust(peers netip.Prefix) error {
	f, err := os.OpenFile(filepath.Join(c.DataDir(), "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	_, err = fmt.Fprintf(f, "host all all %s trust\n", peers)
	return errors.Join(err, f.Close())
}

// BinDir is the directory of the server binaries in use (pgbench, psql and
// pg_amcheck of the same major version may sit beside them).
func (c *Cluster) BinDir() string { return c.bin }

// LogTail is the last n lines of the server log.
func (c *Cluster) LogTail(n int) string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
	return lastLines(string(b), n)
}

func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd
}

func (c *Cluster) chown(dir string) error {
	if c.cred == nil {
		return nil
	}
	if err := os.Chown(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
		return fmt.Errorf("pgcluster: hand %s to uid %d: %w", dir, c.cred.Uid, err)
	}
	return nil
}

// runAs is the unprivileged identity the cluster runs as when we are root.
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 == nil && err2 == nil && uid != 0 {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("pgcluster: running as root and no unprivileged user (postgres, nobody) to run initdb as")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgcluster: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
