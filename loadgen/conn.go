package loadgen

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
)

// Conn is one keep-alive connection to the target. RoundTrip writes a
// complete, pre-rendered HTTP/1.1 request and reads the response through to
// the end of its body, returning the status code (StatusPenalty for a 429
// under a penalty, when the dialer reads penalties). After an error the Conn is
// unusable and the caller dials a new one.
type Conn interface {
	RoundTrip(req []byte) (status int, err error)
	Close() error
}

// Dialer opens connections to the target; one per worker.
type Dialer interface {
	Dial(ctx context.Context) (Conn, error)
}

// HTTPDialer dials plain or TLS connections to one base URL and speaks lean
// HTTP/1.1 on them: requests are pre-rendered bytes, responses are parsed
// only as far as status, framing and Connection: close. It is the fast path
// loadgen uses instead of net/http's client.
type HTTPDialer struct {
	network, addr string
	tls           *tls.Config
	timeout       time.Duration
	penalties     bool // read 429 bodies for the penalty marker (ReadPenalties)
}

var (
	_ Dialer = (*HTTPDialer)(nil)
	_ Conn   = (*httpConn)(nil)
)

// NewHTTPDialer returns a dialer for base (http:// or https://); timeout
// bounds the dial and each round trip.
func NewHTTPDialer(base string, timeout time.Duration) (*HTTPDialer, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("target %q is not a base URL", base)
	}
	d := &HTTPDialer{network: "tcp", addr: u.Host, timeout: timeout}
	switch u.Scheme {
	case "http":
		if u.Port() == "" {
			d.addr = net.JoinHostPort(u.Hostname(), "80")
		}
	case "https":
		if u.Port() == "" {
			d.addr = net.JoinHostPort(u.Hostname(), "443")
		}
		d.tls = &tls.Config{ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}}
	default:
		return nil, fmt.Errorf("target %q: scheme must be http or https", base)
	}
	return d, nil
}

// ReadPenalties makes d's connections read each 429's body and answer
// StatusPenalty for a refusal under a penalty (FEATURES=penalties).
func (d *HTTPDialer) ReadPenalties() { d.penalties = true }

// Dial opens one connection.
func (d *HTTPDialer) Dial(ctx context.Context) (Conn, error) {
	nd := net.Dialer{Timeout: d.timeout, KeepAlive: 30 * time.Second}
	c, err := nd.DialContext(ctx, d.network, d.addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", d.addr, err)
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	if d.tls != nil {
		t := tls.Client(c, d.tls.Clone())
		hctx, cancel := context.WithTimeout(ctx, d.timeout)
		defer cancel()
		if err := t.HandshakeContext(hctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("tls handshake %s: %w", d.addr, err)
		}
		c = t
	}
	h := &httpConn{c: c, timeout: d.timeout, penalties: d.penalties}
	if d.tls == nil {
		h.raw = newRawIO(c)
	}
	if h.raw != nil {
		h.r = bufio.NewReaderSize(h.raw, 16<<10)
	} else {
		h.r = bufio.NewReaderSize(c, 16<<10)
	}
	return h, nil
}

type httpConn struct {
	c        net.Conn
	raw      *rawIO // Linux plain TCP: write and read in one poller wait; nil otherwise
	r        *bufio.Reader
	timeout  time.Duration
	deadline time.Time // current I/O deadline
	broken   bool
	// penalties: a 429 under a penalty is StatusPenalty (ReadPenalties).
	penalties bool
}

// deadlineSlack: the deadline is moved only when it is this much short of
// now+timeout, so each round trip is bounded by between timeout-slack and
// timeout without re-arming a runtime timer on every request.
const deadlineSlack = time.Second

var errConnBroken = errors.New("connection closed by the target")

func (h *httpConn) Close() error { return h.c.Close() }

// Spent reports that the connection cannot carry another request: the
// server said Connection: close, or a round trip failed.
func (h *httpConn) Spent() bool { return h.broken }

func (h *httpConn) RoundTrip(req []byte) (int, error) {
	if h.broken {
		return 0, errConnBroken
	}
	if h.timeout > 0 {
		want := time.Now().Add(h.timeout)
		if slack := min(deadlineSlack, h.timeout/5); want.Sub(h.deadline) > slack {
			if err := h.c.SetDeadline(want); err != nil {
				h.broken = true
				return 0, err
			}
			h.deadline = want
		}
	}
	if err := h.write(req); err != nil {
		h.broken = true
		return 0, err
	}
	status, closeAfter, err := readResponse(h.r, h.penalties)
	if err != nil {
		h.broken = true
		return status, err
	}
	if closeAfter {
		h.broken = true // the next RoundTrip fails fast; the worker redials
	}
	return status, nil
}

// write sends req, or with the fast path queues it for the first read of
// the response (which writes it).
func (h *httpConn) write(req []byte) error {
	if h.raw == nil {
		if _, err := h.c.Write(req); err != nil {
			return fmt.Errorf("write request: %w", err)
		}
		return nil
	}
	h.raw.send(req)
	if h.r.Buffered() > 0 {
		// Bytes beyond the last response are waiting; the response parser
		// reads them before asking for more, so write the request now.
		return h.raw.flush()
	}
	return nil
}
