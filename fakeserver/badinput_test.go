package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// The bad-input corpus over a real connection: each bad request gets a 4xx
// JSON error, and quota is never spent or restored by one. Unknown fields
// are not bad input (any ride body is accepted) and spend like any request.
func TestBadInputCorpus(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Limit = 3
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bucket := devBucket(77)
	valid := rideBody(bucket)
	hugeArray := `{"device_bucket":"` + bucket + `","segments":[` + strings.Repeat(`{"a":1},`, 200000) + `{}]}`
	topArray := "[" + strings.Repeat("1,", 100000) + "1]"
	corpus := []struct {
		name, ctype string
		body        []byte
		status      int
	}{
		{"malformed", "application/json", []byte(`{"device_bucket":"` + bucket + `",`), 400},
		{"10MiB", "application/json", append([]byte(`{"device_bucket":"`+bucket+`","pad":"`), bytes.Repeat([]byte("x"), 10<<20)...), 413},
		{"invalid-utf8", "application/json", []byte(`{"device_bucket":"` + bucket + "\",\"x\":\"\xc3\x28\"}"), 400},
		{"huge-array-oversized", "application/json", []byte(hugeArray), 413},
		{"huge-top-level-array", "application/json", []byte(topArray), 400},
		{"wrong-content-type", "text/plain", []byte(valid), 415},
		{"form-content-type", "application/x-www-form-urlencoded", []byte(valid), 415},
		{"duplicate-keys", "application/json", []byte(`{"device_bucket":"` + bucket + `","device_bucket":"` + devBucket(78) + `"}`), 400},
		{"empty", "application/json", nil, 400},
		{"null", "application/json", []byte("null"), 400},
		{"nul-bytes", "application/json", []byte("{\x00}"), 400},
		{"deep-nesting", "application/json", []byte(`{"device_bucket":"` + bucket + `","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), 400},
	}
	client := &http.Client{}
	post := func(ctype string, body []byte) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, r.URL+PathRideSummary, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", ctype)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", ctype, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	remainingOf := func() int {
		t.Helper()
		resp, _ := post("application/json", []byte(valid))
		n, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		if err != nil {
			t.Fatalf("%d %v", resp.StatusCode, resp.Header)
		}
		return n
	}
	run := func() {
		for _, c := range corpus {
			resp, body := post(c.ctype, c.body)
			var e struct{ Error string }
			if resp.StatusCode != c.status || json.Unmarshal(body, &e) != nil || e.Error == "" {
				t.Errorf("%s: %d %s, want %d with a JSON error", c.name, resp.StatusCode, body, c.status)
			}
		}
	}
	run()
	if got := remainingOf(); got != 2 {
		t.Fatalf("after the corpus the first valid request has Remaining %d, want 2", got)
	}
	// Unknown fields are accepted and spend one unit.
	resp, _ := post("application/json", []byte(`{"device_bucket":"`+bucket+`","unknown_field":{"x":[1,2]}}`))
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "1" {
		t.Fatalf("unknown fields: %d %v", resp.StatusCode, resp.Header)
	}
	if got := remainingOf(); got != 0 {
		t.Fatalf("Remaining %d, want 0", got)
	}
	run()
	if resp, _ := post("application/json", []byte(valid)); resp.StatusCode != 429 {
		t.Fatalf("bad input restored quota: %d", resp.StatusCode)
	}
}
