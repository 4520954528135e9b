package fault

import (
	"bytes"
	"io"
	"mime"
	"net/http"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
)

// KeyFunc is a fakeserver.Keyer from a function: how keying faults wrap the
// correct keyer.
type KeyFunc func(r *http.Request, ride fakeserver.Ride) string

var _ fakeserver.Keyer = KeyFunc(nil)

// Key calls f.
func (f KeyFunc) Key(r *http.Request, ride fakeserver.Ride) string { return f(r, ride) }

// OnHeaders wraps h so that hook may change the response headers just
// before they are sent: how header faults wrap the correct handler.
func OnHeaders(h http.Handler, hook func(r *http.Request, status int, hdr http.Header)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&headerHook{ResponseWriter: w, hook: func(status int, hdr http.Header) { hook(r, status, hdr) }}, r)
	})
}

type headerHook struct {
	http.ResponseWriter
	hook func(status int, hdr http.Header)
	sent bool
}

func (w *headerHook) WriteHeader(status int) {
	if !w.sent {
		w.sent = true
		w.hook(status, w.Header())
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *headerHook) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *headerHook) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// OnQuota wraps h so that edit may change the quota a response reports,
// in whichever dialect the server answers (cfg.Answers): the fields are
// read, edited and written again in that dialect. A response without them
// (DIALECT=status) is left alone.
func OnQuota(cfg fakeserver.Config, h http.Handler, edit func(status int, q *dialect.Quota)) http.Handler {
	a, clk := cfg.Answers(), cfg.ClockOrWall()
	return OnHeaders(h, func(_ *http.Request, status int, hdr http.Header) {
		now := clk.Now()
		o := a.Read(dialect.Response{Status: status, Header: hdr, Received: now})
		if o.Err != nil || !o.Has(dialect.FieldLimit) {
			return
		}
		q := dialect.Quota{Limit: o.Limit, Remaining: o.Remaining, Reset: o.Reset, Window: o.Window, Now: now}
		if q.Window == 0 {
			q.Window = cfg.Window
		}
		edit(status, &q)
		_ = a.Write(hdr, q)
	})
}

// DropRateLimitHeaders removes the X-RateLimit-* headers.
func DropRateLimitHeaders(hdr http.Header) {
	for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		hdr.Del(k)
	}
}

// PeekRide reads r's body (leaving it readable again) and parses it as a
// ride the way the server does. ok is false when the body is too large or
// unreadable.
func PeekRide(r *http.Request) (body []byte, ride fakeserver.Ride, perr *fakeserver.InputError, ok bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, fakeserver.MaxBodyBytes+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || len(body) > fakeserver.MaxBodyBytes {
		return body, ride, nil, false
	}
	ride, perr = fakeserver.ParseRide(body)
	return body, ride, perr, true
}

// IsRidePost tells whether r is a POST of JSON to the ride endpoint.
func IsRidePost(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.Method == http.MethodPost && r.URL.Path == fakeserver.PathRideSummary && err == nil && mt == "application/json"
}

// Intercept is the Wrap of a fault in front of the correct handler h:
// serve answers every request, passing it on to h or not.
func Intercept(serve func(cfg fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request)) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve(cfg, h, w, r) })
		}}
	}
}

// EditHeaders is the Wrap of a header fault: edit may change the
// response headers just before they are sent (OnHeaders).
func EditHeaders(edit func(cfg fakeserver.Config, status int, hdr http.Header)) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
			return OnHeaders(h, func(_ *http.Request, status int, hdr http.Header) { edit(cfg, status, hdr) })
		}}
	}
}

// EditQuota is the Wrap of a fault that changes the quota a response
// reports, in the server's dialect (OnQuota).
func EditQuota(edit func(status int, q *dialect.Quota)) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler { return OnQuota(cfg, h, edit) }}
	}
}

// LimitFromRemaining is spec/003's middleware line (871), whatever the
// algorithm behind it.
var LimitFromRemaining = EditQuota(func(_ int, q *dialect.Quota) { q.Limit = q.Remaining + 1 })

// Discard is a ResponseWriter that keeps nothing.
type Discard http.Header

// Header is d.
func (d Discard) Header() http.Header         { return http.Header(d) }
func (d Discard) Write(b []byte) (int, error) { return len(b), nil }
func (d Discard) WriteHeader(int)             {}
