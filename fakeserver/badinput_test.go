package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
)

// badInput is one entry of the corpus: what is sent and the 4xx expected.
type badInput struct {
	name, ctype string
	body        []byte
	status      int
	code        string // the "error" field; "" = any non-empty
	detail      string // the "detail" field when the server must give one
}

// badInputCorpus is the bad-input corpus. Every body that can carry one
// names bucket as its device_bucket, so a spend or a refill would show on
// that bucket.
func badInputCorpus(bucket string) []badInput {
	const js = "application/json"
	db := `"device_bucket":"` + bucket + `"`
	seg := `{"from_stop_id":"20558","to_stop_id":"29374","duration_sec":180,"dwell_sec":20,"mapmatch_conf":0.9,"observed_at_utc":"2026-03-01T11:50:00Z"}`
	valid := `{"route_id":"335E","direction_id":0,"segments":[` + seg + `],"submitted_at":"2026-03-01T12:00:00Z","nonce":"n",` + db + `}`
	million := func(elem string) []byte { // a 1e6-element segments array
		return []byte(`{` + db + `,"segments":[` + strings.Repeat(elem+",", 999_999) + elem + `]}`)
	}
	return []badInput{
		{name: "malformed-truncated", ctype: js, body: []byte(`{` + db + `,`), status: 400, code: "invalid_json"},
		{name: "malformed-unquoted-key", ctype: js, body: []byte(`{` + db + `,route_id:"335E"}`), status: 400, code: "invalid_json"},
		{name: "malformed-single-quotes", ctype: js, body: []byte(`{'device_bucket':'` + bucket + `'}`), status: 400, code: "invalid_json"},
		{name: "empty", ctype: js, body: nil, status: 400, code: "empty_body"},
		{name: "10MiB", ctype: js, body: append([]byte(`{`+db+`,"route_id":"`), append(bytes.Repeat([]byte("x"), 10<<20), `"}`...)...), status: 413, code: "body_too_large"},
		{name: "invalid-utf8", ctype: js, body: []byte(`{` + db + ",\"route_id\":\"\xc3\x28\"}"), status: 400, code: "invalid_utf8"},
		{name: "invalid-utf8-key", ctype: js, body: []byte(`{` + db + ",\"\xff\":1}"), status: 400, code: "invalid_utf8"},
		{name: "segments-1e6-numbers", ctype: js, body: million("0"), status: 413, code: "body_too_large"},
		{name: "segments-1e6-objects", ctype: js, body: million("{}"), status: 413, code: "body_too_large"},
		{name: "segments-300k-numbers-under-1MiB", ctype: js, body: []byte(`{` + db + `,"segments":[` + strings.Repeat("0,", 299_999) + `0]}`), status: 400, code: "invalid_body", detail: "segments[0] must be an object"},
		{name: "segments-100k-objects-last-unknown", ctype: js, body: []byte(`{` + db + `,"segments":[` + strings.Repeat(seg+",", 5000) + strings.Repeat("{},", 95_000) + `{"x":1}]}`), status: 400, code: "invalid_body", detail: `unknown field "x" in segments[100000]`},
		{name: "top-level-array-100k", ctype: js, body: []byte("[" + strings.Repeat("1,", 99_999) + "1]"), status: 400, code: "not_object"},
		{name: "ctype-text-plain", ctype: "text/plain", body: []byte(valid), status: 415, code: "unsupported_media_type"},
		{name: "ctype-form", ctype: "application/x-www-form-urlencoded", body: []byte(valid), status: 415, code: "unsupported_media_type"},
		{name: "ctype-missing", ctype: "", body: []byte(valid), status: 415, code: "unsupported_media_type"},
		{name: "ctype-garbage", ctype: "application/json; ;;=", body: []byte(valid), status: 415, code: "unsupported_media_type"},
		{name: "unknown-field", ctype: js, body: []byte(`{` + db + `,"x":1}`), status: 400, code: "invalid_body", detail: `unknown field "x"`},
		{name: "unknown-field-in-valid-ride", ctype: js, body: []byte(valid[:len(valid)-1] + `,"unknown_field":{"x":[1,2]}}`), status: 400, code: "invalid_body", detail: `unknown field "unknown_field"`},
		{name: "unknown-field-in-segment", ctype: js, body: []byte(`{` + db + `,"segments":[` + seg + `,{"from_stop_id":"1","speed":3}]}`), status: 400, code: "invalid_body", detail: `unknown field "speed" in segments[1]`},
		{name: "segments-not-array", ctype: js, body: []byte(`{` + db + `,"segments":{"from_stop_id":"1"}}`), status: 400, code: "invalid_body", detail: "segments must be an array of objects"},
		{name: "segments-null", ctype: js, body: []byte(`{` + db + `,"segments":null}`), status: 400, code: "invalid_body"},
		{name: "duplicate-device-bucket", ctype: js, body: []byte(`{` + db + `,"device_bucket":"` + devBucket(78) + `"}`), status: 400, code: "duplicate_key"},
		{name: "duplicate-route-id", ctype: js, body: []byte(`{` + db + `,"route_id":"a","route_id":"b"}`), status: 400, code: "duplicate_key"},
		{name: "deep-nesting-value", ctype: js, body: []byte(`{` + db + `,"route_id":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`), status: 400, code: "invalid_json"},
		{name: "deep-nesting-segment", ctype: js, body: []byte(`{` + db + `,"segments":[{"dwell_sec":` + strings.Repeat(`{"a":`, 50_000) + "1" + strings.Repeat("}", 50_000) + `}]}`), status: 400, code: "invalid_json"},
		{name: "number", ctype: js, body: []byte(`42`), status: 400, code: "not_object"},
		{name: "string", ctype: js, body: []byte(`"` + bucket + `"`), status: 400, code: "not_object"},
		{name: "null", ctype: js, body: []byte(`null`), status: 400, code: "not_object"},
		{name: "true", ctype: js, body: []byte(`true`), status: 400, code: "not_object"},
		{name: "array-of-ride", ctype: js, body: []byte(`[` + valid + `]`), status: 400, code: "not_object"},
		{name: "trailing-garbage", ctype: js, body: []byte(valid + ` garbage`), status: 400, code: "invalid_json"},
		{name: "trailing-object", ctype: js, body: []byte(valid + valid), status: 400, code: "invalid_json"},
		{name: "trailing-comma", ctype: js, body: []byte(`{` + db + `,}`), status: 400, code: "invalid_json"},
		{name: "nul-in-object", ctype: js, body: []byte("{\x00}"), status: 400, code: "invalid_json"},
		{name: "nul-in-string", ctype: js, body: []byte(`{` + db + ",\"route_id\":\"33\x005E\"}"), status: 400, code: "invalid_json"},
		{name: "nul-after-object", ctype: js, body: []byte(valid + "\x00"), status: 400, code: "invalid_json"},
		{name: "nul-only", ctype: js, body: []byte("\x00\x00\x00"), status: 400, code: "invalid_json"},
	}
}

// The bad-input corpus over a real connection: each bad request gets its
// 4xx with a JSON error body (Content-Type application/json, an "error"
// field, and the detail where the server names the culprit), never a 5xx,
// and quota is never spent or restored by one — checked on the bucket the
// bad bodies name, before and after the corpus, with quota left and with
// the bucket exhausted.
func TestBadInputCorpus(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Limit = 3
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bucket := devBucket(77)
	valid := []byte(`{"route_id":"335E","direction_id":0,"segments":[],"submitted_at":"2026-03-01T12:00:00Z","nonce":"n","device_bucket":"` + bucket + `"}`)
	corpus := badInputCorpus(bucket)
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	post := func(ctype string, body []byte) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, r.URL+PathRideSummary, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", ctype, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("read response: %v", err)
		}
		return resp, b
	}
	// spend sends a well-formed ride and returns its status and Remaining.
	spend := func() (int, int) {
		t.Helper()
		resp, body := post("application/json", valid)
		n, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		if err != nil {
			t.Fatalf("well-formed ride: %d %s, X-RateLimit-Remaining %q", resp.StatusCode, body, resp.Header.Get("X-RateLimit-Remaining"))
		}
		return resp.StatusCode, n
	}
	run := func(round string) {
		for _, c := range corpus {
			resp, body := post(c.ctype, c.body)
			var e struct{ Error, Detail string }
			jerr := json.Unmarshal(body, &e)
			switch {
			case resp.StatusCode >= 500:
				t.Errorf("%s %s: %d (a 5xx) %s", round, c.name, resp.StatusCode, body)
			case resp.StatusCode != c.status:
				t.Errorf("%s %s: %d %s, want %d", round, c.name, resp.StatusCode, body, c.status)
			case resp.Header.Get("Content-Type") != "application/json":
				t.Errorf("%s %s: Content-Type %q, want application/json", round, c.name, resp.Header.Get("Content-Type"))
			case jerr != nil || e.Error == "":
				t.Errorf("%s %s: body %q is not a JSON error (%v)", round, c.name, body, jerr)
			case c.code != "" && e.Error != c.code:
				t.Errorf("%s %s: error %q, want %q", round, c.name, e.Error, c.code)
			case c.detail != "" && e.Detail != c.detail:
				t.Errorf("%s %s: detail %q, want %q", round, c.name, e.Detail, c.detail)
			}
			if round == "quota left" {
				t.Logf("%-36s %8d bytes  %d %s", c.name, len(c.body), resp.StatusCode, truncate(string(body), 120))
			}
		}
	}
	if st, rem := spend(); st != 200 || rem != 2 {
		t.Fatalf("first well-formed ride: %d Remaining %d, want 200 and 2", st, rem)
	}
	run("quota left")
	if st, rem := spend(); st != 200 || rem != 1 {
		t.Fatalf("after the corpus: %d Remaining %d, want 200 and 1 (bad input spent or restored quota)", st, rem)
	}
	if st, rem := spend(); st != 200 || rem != 0 {
		t.Fatalf("exhausting the bucket: %d Remaining %d, want 200 and 0", st, rem)
	}
	run("exhausted")
	if st, rem := spend(); st != 429 || rem != 0 {
		t.Fatalf("after the corpus on an exhausted bucket: %d Remaining %d, want 429 and 0 (bad input restored quota)", st, rem)
	}
	t.Logf("%d bad inputs, twice each: all 4xx with a JSON error, quota unchanged", len(corpus))
}

// The harness's default body (bodytmpl.Default, with and without
// device_bucket) passes the unknown-field check.
func TestDefaultBodyIsARide(t *testing.T) {
	b, err := bodytmpl.New(bodytmpl.Default, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []bodytmpl.BucketField{bodytmpl.Bucket(devBucket(1)), bodytmpl.Omit(), bodytmpl.BucketValue(42)} {
		body, err := b.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, perr := ParseRide(body); perr != nil {
			t.Fatalf("ParseRide(%s): %v", body, perr)
		}
	}
	ride, _ := ParseRide(must(b.Render(bodytmpl.Bucket(devBucket(1)))))
	if !ride.HasBucket || ride.DeviceBucket != devBucket(1) {
		t.Fatalf("device_bucket read as %+v", ride)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
