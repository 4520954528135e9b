// Package trivial is the smallest useful HTTP target: it answers every
// request with 200 and a two-byte JSON body. The load-generator comparison
// uses it to measure generators rather than the rate limiter.
package trivial

import (
	"io"
	"net"
	"net/http"
	"time"
)

// Handler drains the request body and answers {}.
func Handler() http.Handler {
	body := []byte("{}")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{"2"}
		_, _ = w.Write(body)
	})
}

// Serve serves Handler on ln until it is closed.
func Serve(ln net.Listener) error {
	srv := &http.Server{Handler: Handler(), ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}
