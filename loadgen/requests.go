package loadgen

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/rlspec/rlspec/service"
)

// Requests renders the wire bytes of the requests an attack sends: one
// request per device bucket, each a complete HTTP/1.1 POST with the body
// rendered from the template (service.Body) with that bucket set, and the
// extra headers (TARGET_HEADERS). Request n goes to bucket n mod len.
//
// Bodies are pre-rendered rather than executed per request, so the template
// functions (now, ago, uuid) are evaluated when the pool is rendered; the
// attack re-renders the pool periodically (WithBodyRefresh) so timestamps
// stay fresh.
type Requests struct {
	Endpoint string      // full URL of the endpoint
	Header   http.Header // extra headers, sent on every request
	Body     *service.Body
	Buckets  []string // device buckets the load is spread over
	XFF      string   // X-Forwarded-For value; empty sends none
}

// NewRequests returns a request set for cfg against base with n fresh random
// device buckets (64 lowercase hex each).
func NewRequests(cfg service.Config, base string, n int) (*Requests, error) {
	if n < 1 {
		return nil, fmt.Errorf("BUCKETS=%d must be at least 1", n)
	}
	body, err := service.LoadBody(cfg.BodyTemplate)
	if err != nil {
		return nil, err
	}
	r := &Requests{Endpoint: cfg.Endpoint(base), Header: cfg.Headers, Body: body, Buckets: make([]string, n)}
	for i := range r.Buckets {
		r.Buckets[i] = service.NewDeviceBucket()
	}
	if cfg.ClientIPs == service.ClientIPsXFF {
		r.XFF = service.NewClientAddr(service.ClientIPsXFF).String()
	}
	return r, nil
}

// Render returns the wire bytes of one request per bucket.
func (r *Requests) Render() ([][]byte, error) {
	u, err := url.Parse(r.Endpoint)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q is not a URL", r.Endpoint)
	}
	path := u.RequestURI()
	var head bytes.Buffer
	head.WriteString("POST " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	names := make([]string, 0, len(r.Header))
	for k := range r.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	hasCT := false
	for _, k := range names {
		ck := http.CanonicalHeaderKey(k)
		switch ck {
		case "Content-Length", "Host", "Transfer-Encoding", "Connection":
			continue // framing is ours
		case "Content-Type":
			hasCT = true
		}
		for _, v := range r.Header[k] {
			head.WriteString(ck + ": " + v + "\r\n")
		}
	}
	if !hasCT {
		head.WriteString("Content-Type: application/json\r\n")
	}
	if r.XFF != "" {
		head.WriteString("X-Forwarded-For: " + r.XFF + "\r\n")
	}
	head.WriteString("User-Agent: rlspec-loadgen\r\n")
	out := make([][]byte, len(r.Buckets))
	for i, b := range r.Buckets {
		body, err := r.Body.Render(service.Bucket(b))
		if err != nil {
			return nil, fmt.Errorf("render body for bucket %d: %w", i, err)
		}
		var buf bytes.Buffer
		buf.Grow(head.Len() + 32 + len(body))
		buf.Write(head.Bytes())
		buf.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
		buf.Write(body)
		out[i] = buf.Bytes()
	}
	return out, nil
}
