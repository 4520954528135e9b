package loadgen

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// Requests renders the wire bytes of the requests an attack sends: one
// request per device bucket, each a complete HTTP/1.1 POST with the body
// rendered from the template (bodytmpl.Body) with that bucket set, and the
// extra headers (TARGET_HEADERS). Request n goes to bucket n mod len.
//
// Bodies are pre-rendered rather than executed per request, so the template
// functions (now, ago, uuid) are evaluated when the pool is rendered; the
// attack re-renders the pool periodically (WithBodyRefresh) so timestamps
// stay fresh.
type Requests struct {
	Endpoint string      // full URL of the endpoint
	Header   http.Header // extra headers, sent on every request
	Body     *bodytmpl.Body
	Buckets  []string // device buckets (or keys, with Keyed) the load is spread over
	XFF      string   // X-Forwarded-For value; empty sends none
	// Keyed, when set, makes the request of a key for a profile other than
	// the PRD (service.Config.KeyedRequest: TARGET_METHOD, the key in a
	// header or a JSON body as KEY says); Buckets then holds the keys.
	Keyed func(key string) httpclient.Request
}

// NewRequests returns a request set for cfg against base with n fresh random
// device buckets (64 lowercase hex each).
func NewRequests(cfg service.Config, base string, n int) (*Requests, error) {
	if n < 1 {
		return nil, fmt.Errorf("BUCKETS=%d must be at least 1", n)
	}
	body, err := bodytmpl.Load(cfg.BodyTemplate)
	if err != nil {
		return nil, err
	}
	r := &Requests{Endpoint: cfg.Endpoint(base), Header: cfg.Headers, Body: body, Buckets: make([]string, n)}
	for i := range r.Buckets {
		r.Buckets[i] = bodytmpl.NewDeviceBucket()
	}
	if cfg.Profile != "" && cfg.Profile != profile.PRD {
		cfg = cfg.ForProfile(cfg.Profile)
		for i := range r.Buckets {
			if r.Buckets[i], err = cfg.RenderKey(bodytmpl.NewUUID()); err != nil {
				return nil, err
			}
		}
		r.Keyed = cfg.KeyedRequest
	}
	if cfg.ClientIPs == httpclient.XFF {
		r.XFF = httpclient.NewAddr(httpclient.XFF).String()
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
	var common bytes.Buffer // TARGET_HEADERS and ours, after the request line
	common.WriteString("Host: " + u.Host + "\r\n")
	hasCT := false
	for _, k := range sortedNames(r.Header) {
		ck := http.CanonicalHeaderKey(k)
		switch ck {
		case "Content-Length", "Host", "Transfer-Encoding", "Connection":
			continue // framing is ours
		case "Content-Type":
			hasCT = true
		}
		for _, v := range r.Header[k] {
			common.WriteString(ck + ": " + v + "\r\n")
		}
	}
	if r.XFF != "" {
		common.WriteString("X-Forwarded-For: " + r.XFF + "\r\n")
	}
	common.WriteString("User-Agent: rlspec-loadgen\r\n")
	out := make([][]byte, len(r.Buckets))
	for i, b := range r.Buckets {
		req, err := r.request(b)
		if err != nil {
			return nil, fmt.Errorf("render body for bucket %d: %w", i, err)
		}
		var buf bytes.Buffer
		buf.Grow(common.Len() + 128 + len(req.Body))
		buf.WriteString(req.Method + " " + path + " HTTP/1.1\r\n")
		buf.Write(common.Bytes())
		for _, k := range sortedNames(req.Header) {
			for _, v := range req.Header[k] {
				buf.WriteString(http.CanonicalHeaderKey(k) + ": " + v + "\r\n")
			}
		}
		if !hasCT && req.ContentType != "-" {
			buf.WriteString("Content-Type: " + req.ContentType + "\r\n")
		}
		if len(req.Body) > 0 || req.Method == http.MethodPost {
			buf.WriteString("Content-Length: " + strconv.Itoa(len(req.Body)) + "\r\n")
		}
		buf.WriteString("\r\n")
		buf.Write(req.Body)
		out[i] = buf.Bytes()
	}
	return out, nil
}

// request is the request of bucket (or key) b: the PRD's POST with the
// body template rendered for b, or Keyed's.
func (r *Requests) request(b string) (httpclient.Request, error) {
	if r.Keyed != nil {
		req := r.Keyed(b)
		if req.Method == "" {
			req.Method = http.MethodGet
		}
		return req, nil
	}
	body, err := r.Body.Render(bodytmpl.Bucket(b))
	return httpclient.Request{Method: http.MethodPost, Body: body, ContentType: "application/json"}, err
}

func sortedNames(h http.Header) []string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
