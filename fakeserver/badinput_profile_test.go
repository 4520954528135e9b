package fakeserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/model"
)

// profileServers are the reference serving each profile other than the
// PRD, limit 3, on a fake clock that never moves (nothing leaves a window).
func profileServers(t testing.TB) map[string]tserver {
	out := map[string]tserver{}
	for name, set := range map[string]func(*Config){
		"sliding-log":                func(c *Config) { c.Profile = profile.SlidingLog },
		"fixed-window/epoch":         func(c *Config) { c.Profile, c.Align = profile.FixedWindow, profile.AlignEpoch },
		"fixed-window/first-request": func(c *Config) { c.Profile, c.Align = profile.FixedWindow, profile.AlignFirstRequest },
	} {
		out[name] = newTest(t, func(c *Config) { c.Limit = 3; set(c) })
	}
	return out
}

// keyedCall is a request to the profile endpoint: method, path under it,
// the X-User-ID value ("" none), Content-Type and body.
func keyedCall(method, path, key, ctype string, body []byte) *http.Request {
	r := httptest.NewRequest(http.MethodGet, PathRideSummary, nil)
	r.Method, r.URL.Path = method, PathRideSummary+path
	if len(body) > 0 {
		r.Body, r.ContentLength = nopCloser{bytes.NewReader(body)}, int64(len(body))
	}
	if key != "" {
		r.Header.Set(UserHeader, key)
	}
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	return r
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// stateOf is the stored state of the bucket r is counted against.
func stateOf(t testing.TB, s tserver, r *http.Request) model.State {
	st, err := s.ref.Bucket(context.Background(), s.keyer.Key(r, Ride{}))
	if err != nil {
		t.Fatalf("read bucket: %v", err)
	}
	return st
}

// checkJSONError: a 4xx (never a 5xx) with a JSON error body.
func checkJSONError(t testing.TB, what string, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	var e struct{ Error string }
	switch {
	case w.Code != status:
		t.Errorf("%s: %d %s, want %d", what, w.Code, w.Body, status)
	case w.Header().Get("Content-Type") != "application/json":
		t.Errorf("%s: Content-Type %q, want application/json", what, w.Header().Get("Content-Type"))
	case json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "":
		t.Errorf("%s: body %q is not a JSON error", what, w.Body)
	}
}

// The bad-input corpus against each profile of the reference: every body of
// the PRD's corpus (up to 64 KiB) sent with another method than GET, and
// requests to paths the profile does not serve, with and without the key,
// get a 4xx JSON error and spend nothing — neither the key's bucket nor the
// client address's, with quota left and with the key exhausted.
func TestBadInputCorpusProfiles(t *testing.T) {
	type bad struct {
		name, method, path, ctype string
		body                      []byte
		status                    int
	}
	var corpus []bad
	for _, c := range badInputCorpus(devBucket(77)) {
		if len(c.body) > 64<<10 {
			continue
		}
		for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			corpus = append(corpus, bad{c.name + "/" + m, m, "", c.ctype, c.body, http.StatusMethodNotAllowed})
		}
	}
	for _, m := range []string{http.MethodHead, http.MethodOptions, "BREW", "get"} {
		corpus = append(corpus, bad{"method-" + m, m, "", "", nil, http.StatusMethodNotAllowed})
	}
	for _, p := range []string{"/", "/x", "/../../healthz", "%00"} {
		corpus = append(corpus, bad{"path" + p, http.MethodGet, p, "", nil, http.StatusNotFound})
	}
	for name, s := range profileServers(t) {
		t.Run(name, func(t *testing.T) {
			const key = "user-77"
			spend := func(k string) (int, int64) {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, keyedCall(http.MethodGet, "", k, "", nil))
				return w.Code, remaining(w)
			}
			run := func(round string) {
				for _, k := range []string{key, ""} {
					for _, c := range corpus {
						r := keyedCall(c.method, c.path, k, c.ctype, c.body)
						before := stateOf(t, s, r)
						w := httptest.NewRecorder()
						s.ServeHTTP(w, r)
						if c.method == http.MethodHead {
							if w.Code != c.status {
								t.Errorf("%s %s key %q: %d, want %d", round, c.name, k, w.Code, c.status)
							}
						} else {
							checkJSONError(t, round+" "+c.name+" key "+k, w, c.status)
						}
						if after := stateOf(t, s, r); after != before {
							t.Fatalf("%s %s key %q: state %+v became %+v (bad input spent)", round, c.name, k, before, after)
						}
					}
				}
			}
			if st, rem := spend(key); st != 200 || rem != 2 {
				t.Fatalf("first request: %d Remaining %d, want 200 and 2", st, rem)
			}
			run("quota left")
			if st, rem := spend(key); st != 200 || rem != 1 {
				t.Fatalf("after the corpus: %d Remaining %d, want 200 and 1 (bad input spent or restored quota)", st, rem)
			}
			if st, rem := spend(""); st != 200 || rem != 2 {
				t.Fatalf("client address after the corpus: %d Remaining %d, want 200 and 2 (bad input without the key spent)", st, rem)
			}
			spend(key)
			run("exhausted")
			if st, rem := spend(key); st != 429 || rem != 0 {
				t.Fatalf("after the corpus on an exhausted key: %d Remaining %d, want 429 and 0", st, rem)
			}
			t.Logf("%d bad inputs × 2 keys, twice: all 4xx with a JSON error, nothing spent", len(corpus))
		})
	}
}

// FuzzLimited: whatever arrives at a profile's endpoint (method, path,
// key, body), the answer is a JSON document with 200, 429 or a 4xx, never a
// 5xx; a 200 or 429 carries the X-RateLimit-* headers, and a 4xx changes
// no bucket.
//
//	go test -run '^$' -fuzz FuzzLimited -fuzztime 30s ./fakeserver
func FuzzLimited(f *testing.F) {
	f.Add("GET", "", "user-1", []byte(nil))
	f.Add("POST", "", "user-1", []byte(`{"route_id":"335E"}`))
	f.Add("GET", "/x", "", []byte("{"))
	f.Add("DELETE", "", strings.Repeat("k", 300), []byte("\xff"))
	f.Add("GET", "", "\x01", []byte(nil))
	servers := profileServers(f)
	f.Fuzz(func(t *testing.T, method, path, key string, body []byte) {
		if method == "" || strings.ContainsAny(method, " \t\r\n") || strings.ContainsAny(path, "?#") {
			return // not a request line net/http would parse
		}
		for name, s := range servers {
			r := keyedCall(method, path, key, "application/json", body)
			before := stateOf(t, s, r)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			switch {
			case w.Code == 200 || w.Code == 429:
				if w.Header().Get("X-RateLimit-Limit") != "3" || w.Header().Get("X-RateLimit-Remaining") == "" {
					t.Fatalf("%s: %d without the X-RateLimit-* headers", name, w.Code)
				}
			case w.Code >= 400 && w.Code < 500:
				if after := stateOf(t, s, r); after != before {
					t.Fatalf("%s: %s %q key %q: %d changed the bucket", name, method, path, key, w.Code)
				}
			default:
				t.Fatalf("%s: %s %q key %q: status %d: %s", name, method, path, key, w.Code, w.Body)
			}
			if method != http.MethodHead && (w.Header().Get("Content-Type") != "application/json" || !json.Valid(w.Body.Bytes())) {
				t.Fatalf("%s: response is not JSON: %q", name, w.Body)
			}
		}
	})
}
