//go:build linux

package loadgen

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// epollAvailable: this platform has the epoll engine.
const epollAvailable = true

// epollEngine is the closed loop modelled on wrk: a few event loops, each a
// goroutine locked to its OS thread, each owning its share of the
// connections as raw non-blocking sockets in its own epoll instance. A loop
// writes the pre-rendered request, waits in epoll_wait with every other
// connection it owns, parses the response incrementally (respParser) and
// sends the next request — no goroutine per connection, no netpoller park
// per request. Each loop records into its own recorder, locked once per
// epoll_wait batch rather than per request.
type epollEngine struct {
	a      *Attacker
	addr   string
	family int
	sa     func() syscall.Sockaddr // a fresh one per loop: syscall.Connect writes into it
	loops  []*eloop
}

// Connection states.
const (
	ecIdle       = iota // no request in flight (before the first, or retired)
	ecConnecting        // non-blocking connect under way; the request waits in out
	ecBusy              // request written (or being written), response awaited
)

// epollET is EPOLLET as the uint32 of EpollEvent.Events.
const epollET = 1 << 31

// econn is one connection of a loop.
type econn struct {
	idx      int32
	fd       int // -1: no socket
	gen      int32
	state    int
	out      []byte // request bytes still to write
	buf      []byte
	r, w     int  // unparsed bytes are buf[r:w]
	drained  bool // the last read(2) found the socket empty
	p        respParser
	intended time.Time
	sent     time.Time
	deadline time.Time // zero: no timeout
	retired  bool
}

type eloop struct {
	e       *epollEngine
	epfd    int
	sa      syscall.Sockaddr
	spin    time.Duration
	conns   []*econn
	events  []syscall.EpollEvent
	rec     *recorder
	active  int
	now     func() time.Time
	timeout time.Duration
	errTO   error

	// set by run
	ctx          context.Context
	pool         *atomic.Pointer[[][]byte]
	counter      *atomic.Uint64
	limit        uint64
	measure, end time.Time
}

// newEpollEngine prepares loops event loops (at most one per connection)
// for a.connections connections to remote.
func newEpollEngine(a *Attacker, remote net.Addr, loops int) (*epollEngine, error) {
	ta, ok := remote.(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("remote address %v is not TCP", remote)
	}
	e := &epollEngine{a: a, addr: ta.String()}
	if ip4 := ta.IP.To4(); ip4 != nil {
		e.family = syscall.AF_INET
		e.sa = func() syscall.Sockaddr {
			sa := &syscall.SockaddrInet4{Port: ta.Port}
			copy(sa.Addr[:], ip4)
			return sa
		}
	} else {
		sa := &syscall.SockaddrInet6{Port: ta.Port}
		copy(sa.Addr[:], ta.IP.To16())
		if ta.Zone != "" {
			ifi, err := net.InterfaceByName(ta.Zone)
			if err != nil {
				return nil, fmt.Errorf("zone of %v: %w", ta, err)
			}
			sa.ZoneId = uint32(ifi.Index)
		}
		e.family = syscall.AF_INET6
		e.sa = func() syscall.Sockaddr { c := *sa; return &c }
	}
	loops = max(1, min(loops, a.connections))
	scanErr := fmt.Errorf("request timed out after %s", a.timeout)
	for i := range loops {
		epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			e.close()
			return nil, fmt.Errorf("epoll_create1: %w", err)
		}
		l := &eloop{e: e, epfd: epfd, sa: e.sa(), rec: newRecorder(), now: a.clock.Now, spin: a.spin, timeout: a.timeout, errTO: scanErr}
		for j := i; j < a.connections; j += loops {
			l.conns = append(l.conns, &econn{idx: int32(len(l.conns)), fd: -1, buf: make([]byte, 16<<10)})
		}
		l.events = make([]syscall.EpollEvent, min(len(l.conns), 1024))
		e.loops = append(e.loops, l)
	}
	return e, nil
}

// recorders are the loops' recorders, for the collector.
func (e *epollEngine) recorders() []*recorder {
	rs := make([]*recorder, len(e.loops))
	for i, l := range e.loops {
		rs[i] = l.rec
	}
	return rs
}

// close releases the epoll instances (run does it itself when it ends).
func (e *epollEngine) close() {
	for _, l := range e.loops {
		if l.epfd >= 0 {
			_ = syscall.Close(l.epfd)
			l.epfd = -1
		}
	}
}

// run sends requests on every connection until end, the request limit or
// ctx's end, and returns when every loop has finished. Requests intended
// before measure are not recorded.
func (e *epollEngine) run(ctx context.Context, pool *atomic.Pointer[[][]byte], counter *atomic.Uint64, limit uint64, measure, end time.Time) {
	done := make(chan struct{}, len(e.loops))
	for _, l := range e.loops {
		l.ctx, l.pool, l.counter, l.limit, l.measure, l.end = ctx, pool, counter, limit, measure, end
		go func() {
			defer func() { done <- struct{}{} }()
			l.run()
		}()
	}
	for range e.loops {
		<-done
	}
}

// scanEvery is how often a loop looks for requests past their deadline; it
// also bounds each epoll_wait so cancellation is noticed.
func (l *eloop) scanEvery() time.Duration {
	d := 50 * time.Millisecond
	if l.timeout > 0 {
		d = min(d, max(time.Millisecond, l.timeout/10))
	}
	return d
}

func (l *eloop) run() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer l.shutdown()
	l.rec.mu.Lock()
	now := l.now()
	l.active = len(l.conns)
	for _, c := range l.conns {
		l.next(c, now)
	}
	l.rec.mu.Unlock()
	scan := l.scanEvery()
	nextScan := now.Add(scan)
	for l.active > 0 && l.ctx.Err() == nil {
		wait := nextScan.Sub(l.now())
		msec := max(0, int((wait+time.Millisecond-1)/time.Millisecond))
		n, err := l.poll(msec)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			l.rec.mu.Lock()
			l.abort(fmt.Errorf("epoll_wait: %w", err))
			l.rec.mu.Unlock()
			return
		}
		l.rec.mu.Lock()
		for _, ev := range l.events[:n] {
			c := l.conns[ev.Fd]
			if ev.Pad != c.gen || c.fd < 0 {
				continue // an event of a socket since closed
			}
			l.handle(c, ev.Events)
		}

		if now = l.now(); !now.Before(nextScan) {
			l.expire(now)
			nextScan = now.Add(scan)
		}
		l.rec.mu.Unlock()
	}
}

// poll waits for events: first without blocking, for up to spin, then in
// a blocking epoll_wait of up to msec.
func (l *eloop) poll(msec int) (int, error) {
	var until time.Time
	for i := 0; ; i++ {
		// epoll_pwait with no signal mask is epoll_wait, and exists on
		// every Linux architecture (arm64 has no epoll_wait).
		r, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(l.epfd), uintptr(unsafe.Pointer(&l.events[0])), uintptr(len(l.events)), 0, 0, 0)
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return 0, errno
		case r > 0:
			return int(r), nil
		}
		if l.spin <= 0 {
			break
		}
		now := time.Now()
		if i == 0 {
			until = now.Add(l.spin)
		} else if !now.Before(until) {
			break
		}
	}
	return syscall.EpollWait(l.epfd, l.events, msec)
}

// abort records err for every request in flight and retires every
// connection: the loop cannot go on.
func (l *eloop) abort(err error) {
	now := l.now()
	for _, c := range l.conns {
		if c.state != ecIdle {
			l.recordErr(c, now, err)
		}
		l.retire(c)
	}
}

func (l *eloop) shutdown() {
	for _, c := range l.conns {
		l.closeSock(c)
	}
	if l.epfd >= 0 {
		_ = syscall.Close(l.epfd)
		l.epfd = -1
	}
}

// expire fails the requests past their deadline.
func (l *eloop) expire(now time.Time) {
	for _, c := range l.conns {
		if c.state != ecIdle && !c.deadline.IsZero() && !now.Before(c.deadline) {
			l.fail(c, l.errTO)
		}
	}
}

func (l *eloop) handle(c *econn, events uint32) {
	if c.state == ecConnecting {
		if events&(syscall.EPOLLOUT|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
			return
		}
		soerr, err := syscall.GetsockoptInt(c.fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
		if err == nil && soerr != 0 {
			err = syscall.Errno(soerr)
		}
		if err != nil {
			l.fail(c, fmt.Errorf("dial %s: %w", l.e.addr, err))
			return
		}
		c.state = ecBusy
	}
	if c.state != ecBusy {
		return
	}
	if err := l.write(c); err != nil {
		l.fail(c, err)
		return
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLERR|syscall.EPOLLHUP|syscall.EPOLLRDHUP) != 0 {
		c.drained = false
		l.read(c)
	}
}

// write writes what is left of the request; nil also when the socket's send
// buffer is full (EPOLLOUT resumes it).
func (l *eloop) write(c *econn) error {
	for len(c.out) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.fd), uintptr(unsafe.Pointer(&c.out[0])), uintptr(len(c.out)))
		switch errno {
		case 0:
			c.out = c.out[n:]
		case syscall.EINTR:
		case syscall.EAGAIN:
			return nil
		default:
			return fmt.Errorf("write request: %w", errno)
		}
	}
	return nil
}

// read reads until the socket is drained, parsing as it goes; each complete
// response is recorded and followed by the next request.
func (l *eloop) read(c *econn) {
	gen := c.gen
	for {
		for c.r < c.w {
			n, done, err := c.p.feed(c.buf[c.r:c.w])
			c.r += n
			if err != nil {
				l.fail(c, err)
				return
			}
			if !done {
				break
			}
			l.finish(c, c.p.head.closeAfter)
			if c.gen != gen || c.state != ecBusy {
				return // closed or retired; its bytes went with it
			}
		}
		if c.r == c.w {
			c.r, c.w = 0, 0
		}
		if c.drained {
			return
		}
		if c.w == len(c.buf) {
			if c.r == 0 {
				l.fail(c, fmt.Errorf("line longer than %d bytes", len(c.buf)))
				return
			}
			c.w = copy(c.buf, c.buf[c.r:c.w])
			c.r = 0
		}
		space := len(c.buf) - c.w
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(c.fd), uintptr(unsafe.Pointer(&c.buf[c.w])), uintptr(space))
		switch errno {
		case 0:
			if n == 0 {
				if done, err := c.p.eof(); err != nil {
					l.fail(c, err)
				} else if done {
					l.finish(c, true)
				}
				return
			}
			c.w += int(n)
			c.drained = int(n) < space
		case syscall.EINTR:
		case syscall.EAGAIN:
			c.drained = true
			return
		default:
			l.fail(c, fmt.Errorf("read response: %w", errno))
			return
		}
	}
}

// finish records the response just parsed and sends the next request.
func (l *eloop) finish(c *econn, closeAfter bool) {
	now := l.now()
	if !c.intended.Before(l.measure) {
		l.rec.recordLocked(c.intended, c.sent, now, c.p.head.status, nil)
	}
	c.p.reset()
	if closeAfter || len(c.out) > 0 {
		l.closeSock(c) // answered before the request was written: start afresh
	}
	l.next(c, now)
}

// fail records err as the outcome of c's request, drops the connection and
// sends the next request on a new one.
func (l *eloop) fail(c *econn, err error) {
	now := l.now()
	l.recordErr(c, now, err)
	l.closeSock(c)
	l.next(c, now)
}

func (l *eloop) recordErr(c *econn, now time.Time, err error) {
	if !c.intended.Before(l.measure) {
		l.rec.recordLocked(c.intended, c.sent, now, 0, err)
	}
}

// next starts c's next request at now (dialing first when c has no
// socket), or retires c at the end of the attack or of its request budget.
func (l *eloop) next(c *econn, now time.Time) {
	for {
		c.state = ecIdle
		if !now.Before(l.end) || l.ctx.Err() != nil {
			l.retire(c)
			return
		}
		n := l.counter.Add(1) - 1
		if l.limit > 0 && n >= l.limit {
			l.retire(c)
			return
		}
		reqs := *l.pool.Load()
		c.out = reqs[n%uint64(len(reqs))]
		c.intended, c.sent = now, now
		c.deadline = time.Time{}
		if l.timeout > 0 {
			c.deadline = now.Add(l.timeout)
		}
		var err error
		if c.fd < 0 {
			if err = l.connect(c); err == nil {
				c.state = ecConnecting
				return
			}
		} else if err = l.write(c); err == nil {
			c.state = ecBusy
			return
		}
		now = l.now()
		l.recordErr(c, now, err)
		l.closeSock(c)
	}
}

// connect starts a non-blocking connect; the socket's first EPOLLOUT says
// it finished.
func (l *eloop) connect(c *econn) error {
	fd, err := syscall.Socket(l.e.family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, syscall.IPPROTO_TCP)
	if err != nil {
		return fmt.Errorf("dial %s: socket: %w", l.e.addr, err)
	}
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	if err := syscall.Connect(fd, l.sa); err != nil && err != syscall.EINPROGRESS {
		_ = syscall.Close(fd)
		return fmt.Errorf("dial %s: %w", l.e.addr, err)
	}
	c.gen++
	ev := syscall.EpollEvent{
		Events: syscall.EPOLLIN | syscall.EPOLLOUT | syscall.EPOLLRDHUP | epollET,
		Fd:     c.idx,
		Pad:    c.gen,
	}
	if err := syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		_ = syscall.Close(fd)
		return fmt.Errorf("dial %s: epoll_ctl: %w", l.e.addr, err)
	}
	c.fd = fd
	c.drained = false
	return nil
}

// closeSock closes c's socket (which leaves the epoll set with it) and
// forgets its unparsed bytes.
func (l *eloop) closeSock(c *econn) {
	if c.fd >= 0 {
		_ = syscall.Close(c.fd)
		c.fd = -1
		c.gen++
	}
	c.r, c.w = 0, 0
	c.out = nil
	c.drained = false
	c.p.reset()
}

// retire ends c for this attack.
func (l *eloop) retire(c *econn) {
	l.closeSock(c)
	c.state = ecIdle
	if !c.retired {
		c.retired = true
		l.active--
	}
}
