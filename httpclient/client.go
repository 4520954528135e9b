// Package httpclient sends rlspec's requests to a service under test and
// records each as an Exchange: the request as sent (from a client address of
// its own, bound in 127.0.0.0/8 or claimed in X-Forwarded-For), the answer,
// timestamps, how to send it again (Curl, credentials as variables) and its
// rate-limit fields read through package dialect (Observe, RateLimit,
// Refused). Large bodies go on connections of their own so that an answer
// sent before the upload ends is still read (upload.go).
package httpclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/redact"
)

// DefaultTimeout bounds every request rlspec sends.
const DefaultTimeout = 5 * time.Second

// HeaderIdemKey is the request header that makes a request idempotent.
const HeaderIdemKey = "Idempotency-Key"

// maxResponseBody caps how much of a response body is kept.
const maxResponseBody = 1 << 20

// AddrMode says how the harness gives each scenario its own client address
// (CLIENT_IPS).
type AddrMode string

const (
	// Bind binds each client's source address in 127.0.0.0/8.
	Bind AddrMode = "bind"
	// XFF sends a distinct documentation-range address in
	// X-Forwarded-For; the implementation must trust the harness as a proxy.
	XFF AddrMode = "xff"
)

// NewAddr returns a fresh client address for mode: a random address in
// 127.0.0.0/8 other than 127.0.0.1 for bind, a random 2001:db8::/32
// documentation address for xff.
func NewAddr(mode AddrMode) netip.Addr {
	var b [16]byte
	_, _ = rand.Read(b[:])
	if mode == XFF {
		b[0], b[1], b[2], b[3] = 0x20, 0x01, 0x0d, 0xb8
		return netip.AddrFrom16(b)
	}
	for {
		a := netip.AddrFrom4([4]byte{127, b[0], b[1], b[2]})
		if b[2] != 0 && b[2] != 255 && a != netip.MustParseAddr("127.0.0.1") {
			return a
		}
		_, _ = rand.Read(b[:3])
	}
}

// Request is one request to the endpoint. Zero fields take defaults: POST,
// application/json, no Idempotency-Key.
type Request struct {
	Method         string
	Body           []byte
	ContentType    string // "-" sends no Content-Type
	IdempotencyKey string
	// Header adds headers to this request over TARGET_HEADERS; a name with
	// no values removes that header of TARGET_HEADERS.
	Header http.Header
	// At is the intended send time; zero means now. The client does not wait
	// for it: pacing is the caller's job, At is only recorded.
	At time.Time
}

// Exchange is one request and what came back, with timestamps. Err is set
// when no complete response arrived (refused, reset, deadline).
type Exchange struct {
	Method     string
	URL        string      // the endpoint, credentials masked (redact.URL)
	Header     http.Header // request headers as sent
	Body       []byte
	ClientAddr netip.Addr

	Status     int
	RespHeader http.Header
	RespBody   []byte

	Intended, Sent, Received time.Time
	// Deadline is when the client gives up on the request (the earlier of
	// its timeout and the caller's deadline).
	Deadline time.Time
	Err      error
	// Replay, when set, is the command that sends the request again for a
	// target that is not reached with curl (WithReplay); Curl returns it.
	Replay string
	// Answer is how the response is read (the client's DIALECT and the
	// rest of dialect.Settings).
	Answer dialect.Settings
}

// Observe reads the response in its dialect (package dialect).
func (e *Exchange) Observe() dialect.Observation {
	return e.Answer.Read(dialect.Response{Status: e.Status, Header: e.RespHeader, Body: e.RespBody, Received: e.Received})
}

// RateLimit is the response's rate-limit fields in its dialect; missing or
// malformed ones (or a Reset in another form than RESET_FORMAT) are an
// error, one sentence.
func (e *Exchange) RateLimit() (dialect.RateLimit, error) {
	if e.Err != nil {
		return dialect.RateLimit{RetryAfter: -1}, e.Err
	}
	return dialect.RateLimitOf(e.Observe())
}

// Refused reports whether the response is a refusal (LIMITED_STATUS).
func (e *Exchange) Refused() bool { return e.Err == nil && e.Answer.Refused(e.Status) }

// Latency is the time from the intended send to the response.
func (e *Exchange) Latency() time.Duration { return e.Received.Sub(e.Intended) }

// Curl renders the request as a shell command an implementer can paste.
// Credential headers (redact.IsCredential) refer to an environment variable
// (redact.CredentialVar) instead of showing their value.
func (e *Exchange) Curl() string {
	if e.Replay != "" {
		return e.Replay
	}
	var b strings.Builder
	b.WriteString("curl -sS -i -X ")
	b.WriteString(e.Method)
	if e.ClientAddr.Is4() && e.ClientAddr.IsLoopback() {
		b.WriteString(" --interface " + e.ClientAddr.String())
	}
	for _, k := range slices.Sorted(maps.Keys(e.Header)) {
		for _, v := range e.Header[k] {
			if redact.IsCredential(k) {
				b.WriteString(" -H " + redact.Header(k, v))
			} else {
				b.WriteString(" -H " + redact.ShellQuote(k+": "+v))
			}
		}
	}
	if len(e.Body) > 0 {
		if len(e.Body) > 4096 {
			fmt.Fprintf(&b, " --data-binary @<(head -c %d /dev/zero)", len(e.Body))
		} else {
			b.WriteString(" --data-binary " + redact.ShellQuote(string(e.Body)))
		}
	}
	b.WriteString(" " + redact.CurlURL(e.URL))
	return b.String()
}

// Summary is a one-line account of the response.
func (e *Exchange) Summary() string {
	if e.Err != nil {
		return "no response: " + e.Err.Error()
	}
	var hs []string
	hs = append(hs, e.Observe().Lines...)
	body := string(e.RespBody)
	if len(body) > 200 {
		body = body[:200] + "…"
	}
	return fmt.Sprintf("HTTP %d [%s] %s", e.Status, strings.Join(hs, "; "), body)
}

// Client sends requests to one target endpoint from one client address. It is
// safe for concurrent use; Close releases its connections.
type Client struct {
	endpoint string
	addr     netip.Addr
	mode     AddrMode
	headers  http.Header
	timeout  time.Duration
	http     *http.Client
	upload   *http.Client // bodies of bulkBody or more, one connection each
	now      func() time.Time
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	rt       http.RoundTripper // replaces HTTP (a target that is not a server)
	replay   func(http.Header) string
	answer   dialect.Settings
}

// Option configures a Client.
type Option func(*Client)

// WithTimeout sets the per-request deadline (default DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithClock sets the clock used for timestamps (default time.Now).
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithAddr sets the client address instead of a fresh random one.
func WithAddr(a netip.Addr) Option { return func(c *Client) { c.addr = a } }

// WithTransport sends every request through rt instead of HTTP: a target
// reached another way (sqltarget's PostgreSQL function). The client address
// is still recorded; nothing is dialled.
func WithTransport(rt http.RoundTripper) Option { return func(c *Client) { c.rt = rt } }

// WithReplay sets how an exchange's request is sent again (Exchange.Replay)
// from its headers: the command of a WithTransport target, instead of curl.
func WithReplay(f func(http.Header) string) Option { return func(c *Client) { c.replay = f } }

// withDial replaces the dialer (tests: connections that misbehave on cue).
func withDial(d func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(c *Client) { c.dial = d }
}

// Target is what a client needs of the settings of the service it sends
// to; package service's Config is one.
type Target interface {
	// Endpoint is the endpoint's full URL on a base URL.
	Endpoint(base string) string
	// Answer is how the service answers, as package dialect reads it.
	Answer() dialect.Settings
	// Sending is how requests go out: CLIENT_IPS and TARGET_HEADERS.
	Sending() (AddrMode, http.Header)
}

// New returns a client of t's endpoint on base (a base URL), from a fresh
// client address per t's CLIENT_IPS.
func New(t Target, base string, opts ...Option) *Client {
	mode, headers := t.Sending()
	c := &Client{
		endpoint: t.Endpoint(base),
		mode:     mode,
		headers:  headers,
		timeout:  DefaultTimeout,
		now:      time.Now,
		answer:   t.Answer(),
	}
	if c.mode == "" {
		c.mode = Bind
	}
	for _, o := range opts {
		o(c)
	}
	if !c.addr.IsValid() {
		c.addr = NewAddr(c.mode)
	}
	dialer := &net.Dialer{Timeout: c.timeout, KeepAlive: 30 * time.Second}
	if c.mode == Bind {
		dialer.LocalAddr = &net.TCPAddr{IP: c.addr.AsSlice()}
	}
	if c.dial == nil {
		c.dial = dialer.DialContext
	}
	tr := &http.Transport{
		DialContext:           c.dial,
		MaxIdleConns:          1024,
		MaxIdleConnsPerHost:   1024,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: c.timeout,
		DisableCompression:    true,
	}
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.http = &http.Client{Transport: tr, CheckRedirect: noRedirect}
	c.upload = &http.Client{Transport: newUploadTransport(c.dial, tr), CheckRedirect: noRedirect}
	if c.rt != nil {
		c.http = &http.Client{Transport: c.rt, CheckRedirect: noRedirect}
		c.upload = c.http
	}
	return c
}

// Addr is the client address this client sends from (or claims via XFF).
func (c *Client) Addr() netip.Addr { return c.addr }

// Close releases idle connections.
func (c *Client) Close() {
	c.http.CloseIdleConnections()
	c.upload.CloseIdleConnections()
}

// Do sends r and records the exchange. It never returns nil and never
// panics; transport failures are in Exchange.Err.
func (c *Client) Do(ctx context.Context, r Request) *Exchange {
	method := r.Method
	if method == "" {
		method = http.MethodPost
	}
	ex := &Exchange{Method: method, URL: redact.URL(c.endpoint), Body: r.Body, ClientAddr: c.addr, Header: http.Header{}, Answer: c.answer}
	for k, vs := range c.headers {
		ex.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range r.Header {
		if len(vs) == 0 {
			ex.Header.Del(k)
			continue
		}
		ex.Header[k] = append([]string(nil), vs...)
	}
	switch r.ContentType {
	case "":
		ex.Header.Set("Content-Type", "application/json")
	case "-":
	default:
		ex.Header.Set("Content-Type", r.ContentType)
	}
	if r.IdempotencyKey != "" {
		ex.Header.Set(HeaderIdemKey, r.IdempotencyKey)
	}
	if c.mode == XFF {
		ex.Header.Set("X-Forwarded-For", c.addr.String())
	}
	if c.replay != nil {
		ex.Replay = c.replay(ex.Header)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	ex.Deadline, _ = ctx.Deadline()
	hc, cutShort := c.http, func() error { return nil }
	if len(r.Body) >= bulkBody {
		hc = c.upload
		ctx, cutShort = traceUpload(ctx)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint, bytes.NewReader(r.Body))
	if err != nil {
		ex.Err = fmt.Errorf("build request: %w", err)
		return ex
	}
	req.Header = ex.Header.Clone()
	ex.Intended = r.At
	ex.Sent = c.now()
	if ex.Intended.IsZero() {
		ex.Intended = ex.Sent
	}
	resp, err := hc.Do(req)
	if err != nil {
		ex.Received = c.now()
		ex.Err = uploadError(describeTransportError(redact.URLError(err), c.timeout), cutShort())
		return ex
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	ex.Received = c.now()
	ex.Status = resp.StatusCode
	ex.RespHeader = resp.Header
	ex.RespBody = body
	if err != nil {
		ex.Err = fmt.Errorf("read response body: %w", describeTransportError(err, c.timeout))
	}
	return ex
}

// describeTransportError turns a transport failure into a short sentence.
func describeTransportError(err error, timeout time.Duration) error {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Errorf("no response within %s: %w", timeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("cancelled: %w", err)
	}
	return err
}
