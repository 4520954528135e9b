// Package servertest drives a ride-summary handler in-process for tests:
// ride bodies, one request, a concurrent batch, and integer headers. It is
// shared by the tests of fakeserver and of fault.
package servertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// DevBucket is a valid device_bucket (64 hex characters) numbered i.
func DevBucket(i int) string { return fmt.Sprintf("%064x", i+1) }

// RideBody is a ride naming bucket: nil for none, a string as a JSON
// string, anything else verbatim.
func RideBody(bucket any) string {
	switch b := bucket.(type) {
	case nil:
		return `{"route_id":"335E","direction_id":0}`
	case string:
		return `{"route_id":"335E","device_bucket":"` + b + `"}`
	default:
		return fmt.Sprintf(`{"route_id":"335E","device_bucket":%v}`, b)
	}
}

// Call is one request to /v1/ride_summary (POST unless Method says).
type Call struct {
	Remote string // "" = 192.0.2.1:1234
	Body   string
	Key    string // Idempotency-Key, "" for none
	Header http.Header
	Method string // "" = POST
	Path   string // "" = /v1/ride_summary
}

// Do sends c to h.
func Do(h http.Handler, c Call) *httptest.ResponseRecorder {
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	path := c.Path
	if path == "" {
		path = "/v1/ride_summary"
	}
	r := httptest.NewRequest(method, path, strings.NewReader(c.Body))
	r.Header.Set("Content-Type", "application/json")
	for k, vs := range c.Header {
		r.Header[k] = vs
	}
	if c.Key != "" {
		r.Header.Set("Idempotency-Key", c.Key)
	}
	r.RemoteAddr = c.Remote
	if r.RemoteAddr == "" {
		r.RemoteAddr = "192.0.2.1:1234"
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// Parallel sends c to h n times at once.
func Parallel(h http.Handler, n int, c Call) []*httptest.ResponseRecorder {
	out := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range out {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			out[i] = Do(h, c)
		}(i)
	}
	close(start)
	wg.Wait()
	return out
}

// Header reads an integer header: -1 when absent, -2 when not an integer.
func Header(w *httptest.ResponseRecorder, name string) int64 {
	v := w.Header().Get(name)
	if v == "" {
		return -1
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return -2
	}
	return n
}

// Remaining is X-RateLimit-Remaining (see Header).
func Remaining(w *httptest.ResponseRecorder) int64 { return Header(w, "X-RateLimit-Remaining") }

// Reset is X-RateLimit-Reset (see Header).
func Reset(w *httptest.ResponseRecorder) int64 { return Header(w, "X-RateLimit-Reset") }
