package fakeserver

import (
	"crypto/subtle"
	"net/http"
)

// Authorized reports whether r carries the Authorization header the server
// requires (Config.RequireAuth, REQUIRE_AUTH), compared in constant time. A
// server that requires none authorizes every request.
func (c Config) Authorized(r *http.Request) bool {
	if c.RequireAuth == "" {
		return true
	}
	got := r.Header.Get("Authorization")
	return subtle.ConstantTimeCompare([]byte(got), []byte(c.RequireAuth)) == 1
}

// WriteUnauthorized is the reference's answer to a request without the
// required credentials: 401 with a JSON error, spending nothing.
func WriteUnauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong Authorization")
}

// requireAuth refuses every request but the health check that lacks the
// Authorization cfg requires, before h sees it; without RequireAuth it is h.
func requireAuth(cfg Config, h http.Handler) http.Handler {
	if cfg.RequireAuth == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" && !cfg.Authorized(r) {
			WriteUnauthorized(w)
			return
		}
		h.ServeHTTP(w, r)
	})
}
