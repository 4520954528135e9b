package fakeserver

import (
	"math/rand/v2"
	"net/http"
	"time"
)

// delayed makes h a slow service: every request except the health check
// waits d — or, with most above d, a time drawn uniformly from [d, most] —
// before it is handled, as behind a busy application server. A request
// whose client gives up while it waits is not handled.
func delayed(h http.Handler, d, most time.Duration) http.Handler {
	if d <= 0 && most <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			wait := d
			if most > d {
				wait += rand.N(most - d + 1)
			}
			t := time.NewTimer(wait)
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
