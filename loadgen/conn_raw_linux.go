//go:build linux

package loadgen

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"unsafe"
)

// rawIO is the fast path of a plain TCP connection: the request is written
// and the response read with raw non-blocking read(2)/write(2) under the
// runtime's poller (syscall.RawConn), inside one RawRead. That saves, per
// request, the read(2) that net.Conn.Read issues right after the write and
// that fails with EAGAIN (the response cannot be there yet), and the
// runtime's enter/exit-syscall bookkeeping around each call.
//
// Why waiting without a first read(2) is safe: RawRead resets the poller's
// read readiness before calling readStep, readStep writes the request, and
// only then waits — so the edge of the response's arrival, which can only
// come after the write, is seen. It waits without reading only when the last
// read(2) drained the socket (it returned less than asked); otherwise it
// reads first, as net.Conn does.
type rawIO struct {
	rc      syscall.RawConn
	out     []byte // request bytes not yet written
	in      []byte // the current Read's destination
	n       int
	err     error
	drained bool // the last read(2) found the socket empty (or returned less than asked)
	readFn  func(fd uintptr) bool
	writeFn func(fd uintptr) bool
}

// newRawIO returns the fast path for c, nil when c is not a plain TCP
// connection.
func newRawIO(c net.Conn) *rawIO {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc, drained: true}
	r.readFn, r.writeFn = r.readStep, r.writeStep // bound once: no allocation per call
	return r
}

// send queues req; the next Read writes it before reading.
func (r *rawIO) send(req []byte) { r.out = req }

// flush writes what send queued without reading.
func (r *rawIO) flush() error {
	if len(r.out) == 0 {
		return nil
	}
	r.err = nil
	if err := r.rc.Write(r.writeFn); err != nil {
		return fmt.Errorf("write request: %w", err)
	}
	return r.err
}

// Read writes the queued request, if any, then reads into p.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.in, r.n, r.err = p, 0, nil
	defer func() { r.in = nil }()
	for {
		if err := r.rc.Read(r.readFn); err != nil {
			return 0, err
		}
		if r.err != nil || len(r.out) == 0 {
			return r.n, r.err
		}
		// The send buffer was full: finish the request, then read.
		if err := r.flush(); err != nil {
			return 0, err
		}
	}
}

// readStep runs under RawRead: true ends it, false waits for readability.
func (r *rawIO) readStep(fd uintptr) bool {
	if len(r.out) > 0 {
		if !r.writeStep(fd) || r.err != nil {
			return true // blocked (Read finishes with flush) or failed
		}
		if r.drained {
			return false // nothing can be there before the response: wait for it
		}
	}
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.in[0])), uintptr(len(r.in)))
		switch errno {
		case 0:
			r.n = int(n)
			r.drained = r.n < len(r.in)
			if r.n == 0 {
				r.err = io.EOF
			}
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			r.drained = true
			return false
		default:
			r.err = errno
			return true
		}
	}
}

// writeStep writes r.out; false when the socket's send buffer is full.
func (r *rawIO) writeStep(fd uintptr) bool {
	for len(r.out) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.out[0])), uintptr(len(r.out)))
		switch errno {
		case 0:
			r.out = r.out[n:]
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.out = nil
			r.err = fmt.Errorf("write request: %w", errno)
			return true
		}
	}
	return true
}
