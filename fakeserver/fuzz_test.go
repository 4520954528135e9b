package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// FuzzParseRide: request parsing never panics; an accepted body is one JSON
// object and device_bucket is what encoding/json reads.
//
//	go test -run '^$' -fuzz FuzzParseRide -fuzztime 30s ./fakeserver
func FuzzParseRide(f *testing.F) {
	for _, s := range []string{`{}`, `{"device_bucket":"` + strings.Repeat("a", 64) + `"}`, `{"device_bucket":1}`, `[]`, `{"a":`, "\xff", `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ride, err := ParseRide(body)
		if err != nil {
			if err.Code == "" || err.Message == "" {
				t.Fatalf("error without code or message: %+v", err)
			}
			return
		}
		var m map[string]any
		if e := json.Unmarshal(body, &m); e != nil || m == nil {
			t.Fatalf("accepted %q, which is not a JSON object: %v", body, e)
		}
		v, isString := m["device_bucket"].(string)
		if isString != ride.HasBucket || (isString && v != ride.DeviceBucket) {
			t.Fatalf("device_bucket %q/%v, encoding/json reads %#v", ride.DeviceBucket, ride.HasBucket, m["device_bucket"])
		}
	})
}

// FuzzClientFromChain: the key address is the peer or one of the
// X-Forwarded-For entries, and an untrusted peer is always its own key.
func FuzzClientFromChain(f *testing.F) {
	f.Add("10.0.0.1", "203.0.113.9, 10.0.0.2")
	f.Add("192.0.2.1", "198.51.100.1")
	f.Add("::ffff:10.0.0.1", "2001:db8::1,garbage")
	f.Add("10.9.9.9", ",,,")
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	f.Fuzz(func(t *testing.T, peerS, xffS string) {
		peer, err := netip.ParseAddr(peerS)
		if err != nil {
			return
		}
		xff := ForwardedFor(http.Header{"X-Forwarded-For": {xffS}})
		got := ClientFromChain(peer, xff, trusted)
		if !isTrusted(peer.Unmap(), trusted) && got != peer.Unmap() {
			t.Fatalf("untrusted peer %s keyed as %s", peer, got)
		}
		if got == peer.Unmap() {
			return
		}
		for _, e := range xff {
			if a, err := netip.ParseAddr(strings.TrimSpace(e)); err == nil && a.Unmap().WithZone("") == got {
				return
			}
		}
		t.Fatalf("key %s is neither the peer nor an X-Forwarded-For entry of %q", got, xffS)
	})
}

// FuzzRideSummary: whatever arrives, the answer is a JSON document with a
// status the contract allows, never a 5xx.
func FuzzRideSummary(f *testing.F) {
	f.Add([]byte(`{"route_id":"335E"}`), "application/json", "")
	f.Add([]byte(`{"device_bucket":"`+strings.Repeat("F", 64)+`"}`), "application/json; charset=utf-8", "k1")
	f.Add([]byte(`{"route_id":`), "application/json", "k2")
	f.Add([]byte(`[]`), "text/plain", "")
	f.Add([]byte("{\"a\":\"\xc3\x28\"}"), "application/json", "\x01")
	s := newTest(f, func(c *Config) { c.Limit = 3 })
	f.Fuzz(func(t *testing.T, body []byte, ctype, key string) {
		r := httptest.NewRequest(http.MethodPost, PathRideSummary, bytes.NewReader(body))
		r.Header.Set("Content-Type", ctype)
		if key != "" {
			r.Header["Idempotency-Key"] = []string{key}
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		switch w.Code {
		case 200, 400, 413, 415, 422, 429:
		default:
			t.Fatalf("status %d for %q (%q, key %q): %s", w.Code, body, ctype, key, w.Body)
		}
		if w.Header().Get("Content-Type") != "application/json" || !json.Valid(w.Body.Bytes()) {
			t.Fatalf("response is not JSON: %q", w.Body)
		}
	})
}
