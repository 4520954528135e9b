package httpclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

func TestClientBindsSourceAddress(t *testing.T) {
	seen := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.RemoteAddr + "|" + r.Header.Get("X-Forwarded-For") + "|" + r.Header.Get("Content-Type") + "|" + r.Header.Get("Authorization") + "|" + r.Header.Get(HeaderIdemKey)
		w.Header().Set(dialect.HeaderLimit, "5")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	cfg := target{}
	cfg.Headers = http.Header{"Authorization": {"Bearer abc"}}
	c := New(cfg, srv.URL)
	defer c.Close()
	ex := c.Do(context.Background(), Request{Body: []byte(`{}`), IdempotencyKey: "k1"})
	if ex.Err != nil {
		t.Fatal(ex.Err)
	}
	got := <-seen
	host, _, _ := net.SplitHostPort(strings.Split(got, "|")[0])
	if host != c.Addr().String() || !c.Addr().IsLoopback() || c.Addr() == netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("server saw %q, client addr %s", got, c.Addr())
	}
	if want := "||application/json|Bearer abc|k1"; !strings.HasSuffix(got, want) {
		t.Fatalf("server saw %q, want suffix %q", got, want)
	}
	if ex.Status != http.StatusTeapot || string(ex.RespBody) != `{"ok":true}` || ex.RespHeader.Get(dialect.HeaderLimit) != "5" {
		t.Fatalf("exchange %+v", ex)
	}
	if ex.Sent.Before(ex.Intended) || ex.Received.Before(ex.Sent) {
		t.Fatalf("timestamps out of order: %v %v %v", ex.Intended, ex.Sent, ex.Received)
	}
	curl := ex.Curl()
	for _, want := range []string{"--interface " + c.Addr().String(), "'Idempotency-Key: k1'", "--data-binary '{}'", srv.URL + "/v1/ride_summary"} {
		if !strings.Contains(curl, want) {
			t.Errorf("curl %q lacks %q", curl, want)
		}
	}
	if s := ex.Summary(); !strings.Contains(s, "HTTP 418") {
		t.Errorf("summary %q", s)
	}
}

func TestClientXFFMode(t *testing.T) {
	seen := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Get("X-Forwarded-For")
	}))
	defer srv.Close()
	cfg := target{}
	cfg.ClientIPs = XFF
	c := New(cfg, srv.URL)
	defer c.Close()
	if ex := c.Do(context.Background(), Request{Body: []byte(`{}`)}); ex.Err != nil {
		t.Fatal(ex.Err)
	}
	xff := netip.MustParseAddr(<-seen)
	if xff != c.Addr() || !netip.MustParsePrefix("2001:db8::/32").Contains(xff) {
		t.Fatalf("X-Forwarded-For %s, client %s", xff, c.Addr())
	}
}

func TestClientDeadlineOnSilentServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	held := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			held <- c // accept and never answer
		}
	}()
	c := New(target{}, "http://"+ln.Addr().String(), WithTimeout(200*time.Millisecond))
	defer c.Close()
	// The deadline's own error proves the client gave up rather than
	// waiting for the silent server (no wall-clock assertion: issue 27).
	ex := c.Do(context.Background(), Request{Body: []byte(`{}`)})
	if ex.Err == nil || !strings.Contains(ex.Err.Error(), "no response within") {
		t.Fatalf("err = %v", ex.Err)
	}
	if _, err := ex.RateLimit(); err == nil {
		t.Fatal("RateLimit of a failed exchange succeeded")
	}
	(<-held).Close()
}

func TestClientRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := New(target{}, "http://"+addr)
	defer c.Close()
	ex := c.Do(context.Background(), Request{})
	var op *net.OpError
	if !errors.As(ex.Err, &op) {
		t.Fatalf("err = %v", ex.Err)
	}
}

func TestNewClientAddr(t *testing.T) {
	for i := 0; i < 200; i++ {
		if a := NewAddr(Bind); !a.Is4() || !a.IsLoopback() || a == netip.MustParseAddr("127.0.0.1") {
			t.Fatalf("bind addr %s", a)
		}
		if a := NewAddr(XFF); !netip.MustParsePrefix("2001:db8::/32").Contains(a) {
			t.Fatalf("xff addr %s", a)
		}
	}
}

func TestWithReplayReplacesCurl(t *testing.T) {
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 429, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	c := New(target{}, "http://sql.invalid", WithTransport(rt),
		WithReplay(func(h http.Header) string { return "psql -c " + h.Get("X-User-ID") }))
	defer c.Close()
	ex := c.Do(context.Background(), Request{Method: http.MethodGet, Header: http.Header{"X-User-Id": {"k1"}}})
	if ex.Err != nil || ex.Status != 429 {
		t.Fatalf("through the transport: %d %v", ex.Status, ex.Err)
	}
	if ex.Curl() != "psql -c k1" {
		t.Errorf("Curl() = %q, want the replay command", ex.Curl())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCurlRefersToCredentialVariables(t *testing.T) {
	ex := &Exchange{Method: "POST", URL: "http://x/v1", Header: http.Header{
		"Authorization": {"Bearer s3cr3t"}, "X-Api-Key": {"k3y"}, "X-Trace": {`it's $HOME`},
	}}
	got := ex.Curl()
	if strings.Contains(got, "s3cr3t") || strings.Contains(got, "k3y") {
		t.Fatalf("curl shows a credential: %s", got)
	}
	for _, want := range []string{`-H "Authorization: $RLSPEC_HEADER_AUTHORIZATION"`, `-H "X-Api-Key: $RLSPEC_HEADER_X_API_KEY"`, `-H 'X-Trace: it'\''s $HOME'`} {
		if !strings.Contains(got, want) {
			t.Errorf("curl lacks %s: %s", want, got)
		}
	}
}

// target is a test's service: the PRD's endpoint on base, answers read in
// the zero dialect.Settings (as service.DefaultConfig's).
type target struct {
	ClientIPs AddrMode
	Headers   http.Header
}

func (t target) Endpoint(base string) string {
	return strings.TrimRight(base, "/") + "/v1/ride_summary"
}
func (target) Answer() dialect.Settings           { return dialect.Settings{} }
func (t target) Sending() (AddrMode, http.Header) { return t.ClientIPs, t.Headers }
