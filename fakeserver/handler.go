package fakeserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// Paths served.
const (
	PathRideSummary = "/v1/ride_summary"
	PathHealth      = "/healthz"
)

// MaxBodyBytes is the largest request body accepted (1 MiB).
const MaxBodyBytes = 1 << 20

// MaxIdempotencyKeyLen bounds the Idempotency-Key header.
const MaxIdempotencyKeyLen = 255

// ServeHTTP routes the two endpoints; anything else is a JSON 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic in handler", "panic", fmt.Sprint(v))
			writeError(w, http.StatusInternalServerError, "internal", "internal error")
		}
	}()
	s.handler.ServeHTTP(w, r.WithContext(withConn(r.Context(), r.RemoteAddr)))
}

// route is the correct handler, before Config.Wrap.Handler.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	if s.tier(w, r) {
		return
	}
	switch r.URL.Path {
	case PathRideSummary:
		if s.cfg.Profile != profile.PRD && s.cfg.Profile != "" {
			s.limited(w, r)
			return
		}
		s.rideSummary(w, r)
	case PathHealth:
		s.health(w, r)
	default:
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint")
	}
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use GET")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.ref.Ping(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, "unavailable", "database unavailable")
		return
	}
	writeJSON(w, http.StatusOK, []byte(`{"status":"ok"}`))
}

func (s *Server) rideSummary(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use POST")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type must be application/json")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "body_too_large", "body exceeds 1 MiB")
			return
		}
		writeError(w, http.StatusBadRequest, "bad_body", "could not read the body")
		return
	}
	ride, perr := ParseRide(body)
	if perr != nil {
		writeInputError(w, perr)
		return
	}
	keys := r.Header.Values("Idempotency-Key")
	key := ""
	switch {
	case len(keys) > 1:
		writeError(w, http.StatusBadRequest, "invalid_idempotency_key", "Idempotency-Key given more than once")
		return
	case len(keys) == 1:
		key = strings.TrimSpace(keys[0])
		if !validIdempotencyKey(key) {
			writeError(w, http.StatusBadRequest, "invalid_idempotency_key", "Idempotency-Key must be 1-255 printable ASCII characters")
			return
		}
	}
	req := reference.Request{
		Bucket:         s.keyer.Key(r, ride),
		IdempotencyKey: key,
		BodySHA256:     sha256.Sum256(body),
		BodyBytes:      len(body),
	}
	d, err := s.ref.Decide(r.Context(), req)
	if err != nil {
		s.unavailable(w, r, err)
		return
	}
	s.writeDecision(w, d)
}

func (s *Server) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, reference.ErrBusy), errors.Is(err, reference.ErrUnavailable), errors.Is(err, reference.ErrClosed), r.Context().Err() != nil:
		s.log.Warn("decision unavailable", "err", err)
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "busy", "rate limiter busy, retry")
	default:
		s.log.Error("decision failed", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

// writeDecision renders a decision: the rate-limit fields on every
// outcome (FR-7's X-RateLimit-* unless RL_DIALECT says otherwise),
// Retry-After and the rate_limited body on a refusal.
func (s *Server) writeDecision(w http.ResponseWriter, d reference.Decision) {
	h := w.Header()
	s.quotaFields(h, d, s.cfg.Window)
	switch d.Outcome {
	case reference.Limited:
		s.refuse(w, d, fmt.Appendf(nil, `{"error":"rate_limited","message":"quota exhausted for this window","retry_after":%d%s}`, d.RetryAfter, penaltyFields(d)))
	case reference.KeyReused:
		writeError(w, http.StatusUnprocessableEntity, "idempotency_key_reused", "Idempotency-Key was already used with a different body")
	case reference.Replayed:
		h.Set("Idempotent-Replayed", "true")
		writeJSON(w, d.Status, d.Body)
	default:
		writeJSON(w, d.Status, d.Body)
	}
}
