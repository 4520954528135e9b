package fakeserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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

// Server is the reference HTTP server: POST /v1/ride_summary and GET
// /healthz on a reference.Store. It owns the store.
type Server struct {
	cfg     Config
	store   *reference.Store
	clock   reference.Clock
	log     *slog.Logger
	tempDir string

	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

var _ http.Handler = (*Server)(nil)

// New opens the store and starts the periodic cleanup.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("fakeserver config: %w", err)
	}
	s := &Server{cfg: cfg, clock: cfg.Clock, log: cfg.Logger, stop: make(chan struct{})}
	if s.clock == nil {
		s.clock = reference.WallClock{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	path := cfg.DBPath
	if path == "" {
		dir, err := os.MkdirTemp("", "rlspec-reference-")
		if err != nil {
			return nil, fmt.Errorf("temp database: %w", err)
		}
		s.tempDir = dir
		path = filepath.Join(dir, "rl.db")
	}
	enabled := cfg.Enabled || cfg.Fault == FaultFlagIgnored
	opts := []reference.Option{
		reference.WithLimit(cfg.Limit),
		reference.WithWindow(cfg.Window),
		reference.WithEnabled(enabled),
		reference.WithSentinel(cfg.Sentinel),
		reference.WithClock(s.clock),
		reference.WithBugs(cfg.Fault.bugs()),
	}
	if cfg.Retention > 0 {
		opts = append(opts, reference.WithRetention(cfg.Retention))
	}
	if cfg.BusyTimeout > 0 {
		opts = append(opts, reference.WithBusyTimeout(cfg.BusyTimeout))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := reference.Open(ctx, path, opts...)
	if err != nil {
		s.removeTemp()
		return nil, err
	}
	s.store = st
	every := cfg.CleanupEvery
	if every == 0 {
		every = time.Hour
	}
	s.wg.Add(1)
	go s.cleanupLoop(every)
	return s, nil
}

// Store is the server's reference store.
func (s *Server) Store() *reference.Store { return s.store }

// DBPath is the database file in use.
func (s *Server) DBPath() string { return s.store.Path() }

// Config is the configuration the server runs with.
func (s *Server) Config() Config { return s.cfg }

// Cleanup runs the retention cleanup now (the server also runs it every
// Config.CleanupEvery).
func (s *Server) Cleanup(ctx context.Context) (reference.CleanupStats, error) {
	return s.store.Cleanup(ctx)
}

func (s *Server) cleanupLoop(every time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			st, err := s.store.Cleanup(ctx)
			cancel()
			if err != nil {
				s.log.Warn("cleanup failed", "err", err)
				continue
			}
			s.log.Info("cleanup", "buckets", st.Buckets, "idempotency_keys", st.IdempotencyKeys, "rides", st.Rides)
		}
	}
}

// Close stops the cleanup, closes the store and removes a temporary database.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.stop)
		s.wg.Wait()
		err = s.store.Close()
		s.removeTemp()
	})
	return err
}

func (s *Server) removeTemp() {
	if s.tempDir != "" {
		_ = os.RemoveAll(s.tempDir)
	}
}

// ServeHTTP routes the two endpoints; anything else is a JSON 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic in handler", "panic", fmt.Sprint(v))
			writeError(w, http.StatusInternalServerError, "internal", "internal error")
		}
	}()
	switch r.URL.Path {
	case PathRideSummary:
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
	if err := s.store.Ping(ctx); err != nil {
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
		if s.cfg.Fault == FaultBadInput500 {
			writeError(w, http.StatusInternalServerError, "internal", "could not process the ride")
			return
		}
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
		Bucket:         s.bucketID(ride, r),
		IdempotencyKey: key,
		BodySHA256:     sha256.Sum256(body),
		BodyBytes:      len(body),
	}
	d, err := s.store.Decide(r.Context(), req)
	if err != nil {
		s.unavailable(w, r, err)
		return
	}
	s.writeDecision(w, d, strings.HasPrefix(req.Bucket, "ip:"))
}

func (s *Server) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, reference.ErrBusy), errors.Is(err, reference.ErrClosed), r.Context().Err() != nil:
		s.log.Warn("decision unavailable", "err", err)
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "busy", "rate limiter busy, retry")
	default:
		s.log.Error("decision failed", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

func (s *Server) writeDecision(w http.ResponseWriter, d reference.Decision, byAddress bool) {
	h := w.Header()
	enabled := s.store.Enabled()
	headers := !(d.Outcome == reference.Limited && s.cfg.Fault == FaultNoHeaders429) &&
		!(!enabled && s.cfg.Fault == FaultNoHeadersFlagOff) &&
		!(byAddress && s.cfg.Fault == FaultNoHeadersFallback)
	if headers {
		remaining, reset := d.Remaining, d.Reset
		if enabled && s.cfg.Fault == FaultOffByOne && d.Outcome == reference.Allowed {
			remaining++
		}
		if s.cfg.Fault == FaultSlidingReset {
			reset = s.clock.Now().Unix() + int64(s.cfg.Window/time.Second)
		}
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	}
	switch d.Outcome {
	case reference.Limited:
		if s.cfg.Fault != FaultNoRetryAfter {
			h.Set("Retry-After", strconv.FormatInt(d.RetryAfter, 10))
		}
		body := fmt.Sprintf(`{"error":"rate_limited","message":"quota exhausted for this window","retry_after":%d}`, d.RetryAfter)
		writeJSON(w, http.StatusTooManyRequests, []byte(body))
	case reference.KeyReused:
		writeError(w, http.StatusUnprocessableEntity, "idempotency_key_reused", "Idempotency-Key was already used with a different body")
	case reference.Replayed:
		h.Set("Idempotent-Replayed", "true")
		writeJSON(w, d.Status, d.Body)
	default:
		writeJSON(w, d.Status, d.Body)
	}
}

// Ride is what the server reads from a request body.
type Ride struct {
	// DeviceBucket is the top-level device_bucket when it is a JSON string.
	DeviceBucket string
	// HasBucket tells whether device_bucket was a string at all.
	HasBucket bool
}

// InputError is a rejected body: a stable code, a message and, for a body
// that is well-formed JSON but not a ride, the detail of what is wrong.
type InputError struct {
	Code, Message string
	Detail        string // "" when Message says it all
}

func (e *InputError) Error() string {
	if e.Detail != "" {
		return e.Code + ": " + e.Message + ": " + e.Detail
	}
	return e.Code + ": " + e.Message
}

// rideField reports whether k may appear at the top level of a ride body:
// everything target.DefaultBodyTemplate sends, plus device_bucket.
func rideField(k string) bool {
	switch k {
	case "route_id", "direction_id", "segments", "submitted_at", "nonce", "device_bucket":
		return true
	}
	return false
}

// segmentField reports whether k may appear in a segment object.
func segmentField(k string) bool {
	switch k {
	case "from_stop_id", "to_stop_id", "duration_sec", "dwell_sec", "mapmatch_conf", "observed_at_utc":
		return true
	}
	return false
}

func invalidJSON() *InputError {
	return &InputError{Code: "invalid_json", Message: "the body is not well-formed JSON"}
}

func invalidBody(format string, args ...any) *InputError {
	return &InputError{Code: "invalid_body", Message: "the body is not a ride summary", Detail: fmt.Sprintf(format, args...)}
}

// ParseRide checks that body is one well-formed JSON object in valid UTF-8
// with no duplicate top-level keys and no unknown field (rideField; in the
// segments array of objects, segmentField), and extracts
// device_bucket. Field values other than segments' shape are not
// interpreted.
func ParseRide(body []byte) (Ride, *InputError) {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return Ride{}, &InputError{Code: "empty_body", Message: "the body is empty"}
	case !utf8.Valid(body):
		return Ride{}, &InputError{Code: "invalid_utf8", Message: "the body is not valid UTF-8"}
	case !json.Valid(trimmed):
		return Ride{}, invalidJSON()
	case trimmed[0] != '{':
		return Ride{}, &InputError{Code: "not_object", Message: "the body must be a JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil {
		return Ride{}, invalidJSON()
	}
	var ride Ride
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Ride{}, invalidJSON()
		}
		k, _ := tok.(string)
		if seen[k] {
			return Ride{}, &InputError{Code: "duplicate_key", Message: fmt.Sprintf("the field %q appears more than once", truncate(k, 40))}
		}
		seen[k] = true
		if !rideField(k) {
			return Ride{}, invalidBody("unknown field %q", truncate(k, 40))
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return Ride{}, invalidJSON()
		}
		switch k {
		case "device_bucket":
			var v string
			if json.Unmarshal(raw, &v) == nil {
				ride.DeviceBucket, ride.HasBucket = v, true
			}
		case "segments":
			if perr := checkSegments(raw); perr != nil {
				return Ride{}, perr
			}
		}
	}
	return ride, nil
}

// checkSegments requires an array of objects with known fields only.
func checkSegments(raw json.RawMessage) *InputError {
	var segs []json.RawMessage
	if json.Unmarshal(raw, &segs) != nil || segs == nil {
		return invalidBody("segments must be an array of objects")
	}
	for i, seg := range segs {
		var fields map[string]json.RawMessage
		if json.Unmarshal(seg, &fields) != nil || fields == nil {
			return invalidBody("segments[%d] must be an object", i)
		}
		for k := range fields {
			if !segmentField(k) {
				return invalidBody("unknown field %q in segments[%d]", truncate(k, 40), i)
			}
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ValidDeviceBucket reports whether v is exactly 64 hex characters.
func ValidDeviceBucket(v string) bool {
	if len(v) != 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > MaxIdempotencyKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// bucketID is the canonical bucket: a valid device_bucket lower-cased,
// otherwise "ip:" and the client address.
func (s *Server) bucketID(ride Ride, r *http.Request) string {
	switch {
	case ride.HasBucket && ValidDeviceBucket(ride.DeviceBucket):
		return strings.ToLower(ride.DeviceBucket)
	case ride.HasBucket && ride.DeviceBucket != "" && s.cfg.Fault == FaultInvalidBucketKey:
		return ride.DeviceBucket
	case s.cfg.Fault == FaultNoIPFallback:
		return "global"
	}
	return "ip:" + s.ClientAddr(r)
}

// ClientAddr is the client address a request is keyed by: the TCP peer, or,
// when the peer is a trusted proxy, the right-most X-Forwarded-For address
// that is not a trusted proxy.
func (s *Server) ClientAddr(r *http.Request) string {
	peer, ok := peerAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	xff := forwardedFor(r.Header)
	if s.cfg.Fault == FaultTrustXFF {
		if len(xff) > 0 {
			if a, err := netip.ParseAddr(strings.TrimSpace(xff[0])); err == nil {
				return a.Unmap().String()
			}
		}
		return peer.String()
	}
	return ClientFromChain(peer, xff, s.cfg.TrustedProxies).String()
}

// ClientFromChain walks X-Forwarded-For from the right, starting at the TCP
// peer: while the current hop is a trusted proxy, the address it reported is
// the next hop. It stops at the first untrusted hop, at an unparsable entry
// (keeping the last trusted hop) or at the left end.
func ClientFromChain(peer netip.Addr, xff []string, trusted []netip.Prefix) netip.Addr {
	cur := peer.Unmap()
	for i := len(xff) - 1; i >= 0 && isTrusted(cur, trusted); i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(xff[i]))
		if err != nil {
			break
		}
		cur = a.Unmap().WithZone("")
	}
	return cur
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func forwardedFor(h http.Header) []string {
	var out []string
	for _, v := range h.Values("X-Forwarded-For") {
		for _, part := range strings.Split(v, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func peerAddr(remote string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeInputError is a 400 for a rejected body, with its detail when it has
// one: {"error":"invalid_body","message":"…","detail":"unknown field \"x\""}.
func writeInputError(w http.ResponseWriter, e *InputError) {
	v := map[string]string{"error": e.Code, "message": e.Message}
	if e.Detail != "" {
		v["detail"] = e.Detail
	}
	b, _ := json.Marshal(v)
	writeJSON(w, http.StatusBadRequest, b)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	b, _ := json.Marshal(map[string]string{"error": code, "message": msg})
	writeJSON(w, status, b)
}
