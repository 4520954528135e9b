package fakeserver

import (
	"net/http"
	"time"
)

// delayed makes h a slow service: every request except the health check
// waits d before it is handled, as behind a busy application server. A
// request whose client gives up while it waits is not handled.
func delayed(h http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
