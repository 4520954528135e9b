package fakeserver

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/reference"
)

// limitedBody is spec/002's 429 body.
// Under a penalty it also carries penalty_active and penalty_until.
const limitedBody = `{"error":{"code":"RATE_LIMITED","message":"Too many requests. Please try again later.","retryAfter":%d}%s}`

// limited serves a non-PRD profile's endpoint: GET, keyed by
// X-User-ID or the client address, the rate-limit fields on every decision
// (RL_DIALECT), and on a refusal Retry-After and spec/002's body (or the
// RL_LIMITED_BODY and RL_LIMITED_STATUS asked for). A leaky bucket's
// allowed answer is held for its turn in the queue (Decision.Wait).
func (s *Server) limited(w http.ResponseWriter, r *http.Request) {
	s.serveLimited(w, r, limitedRoute{method: http.MethodGet, ref: s.ref, bucket: s.keyer.Key(r, Ride{}), window: s.cfg.Window})
}

// limitedRoute is what serveLimited decides with: the method served, the
// limiter, the request's bucket and the window (for RateLimit-Policy).
type limitedRoute struct {
	method string
	ref    *reference.Reference
	bucket string
	window time.Duration
	keyer  Keyer // a tier's keying
}

// serveLimited is limited on one route (the profile's endpoint or a tier).
func (s *Server) serveLimited(w http.ResponseWriter, r *http.Request, rt limitedRoute) {
	if r.Method != rt.method { // a HEAD spends nothing: harnesses open connections with it
		w.Header().Set("Allow", rt.method)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use "+rt.method)
		return
	}
	if s.bypassed(r) {
		writeJSON(w, http.StatusOK, []byte(`{"ok":true}`))
		return
	}
	d, err := rt.ref.Decide(r.Context(), reference.Request{Bucket: rt.bucket, BodySHA256: sha256.Sum256(nil)})
	if err != nil {
		s.unavailable(w, r, err)
		return
	}
	if !s.hold(r.Context(), d.Wait) {
		return // the client gave up while its turn came; its place stays spent
	}
	s.quotaFields(w.Header(), d, rt.window)
	if d.Outcome == reference.Limited {
		s.refuse(w, d, fmt.Appendf(nil, limitedBody, d.RetryAfter, penaltyFields(d)))
		return
	}
	writeJSON(w, http.StatusOK, []byte(`{"ok":true}`))
}
