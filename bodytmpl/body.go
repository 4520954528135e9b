// Package bodytmpl renders the request bodies rlspec sends: a JSON
// text/template (BODY_TEMPLATE, or the PRD's minimal ride, Default) with the
// functions now, ago and uuid, whose top-level device_bucket field a
// scenario then sets, removes or corrupts (BucketField). It also makes the
// fresh random values scenarios send: device buckets and UUIDs.
package bodytmpl

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"text/template"
	"time"
)

// Default is a minimal valid ride body.
const Default = `{"route_id":"335E","direction_id":0,"segments":[{"from_stop_id":"20558","to_stop_id":"29374","duration_sec":180,"dwell_sec":20,"mapmatch_conf":0.9,"observed_at_utc":"{{ago "10m"}}"}],"submitted_at":"{{now}}","nonce":"{{uuid}}"}`

// Body renders request bodies from a text/template (BODY_TEMPLATE) and then
// sets, removes or corrupts the top-level device_bucket field. A Body is safe
// for concurrent use.
type Body struct {
	tmpl *template.Template
	now  func() time.Time
}

// New parses a body template. now may be nil (time.Now).
func New(text string, now func() time.Time) (*Body, error) {
	if now == nil {
		now = time.Now
	}
	b := &Body{now: now}
	funcs := template.FuncMap{
		"now": func() string { return b.now().UTC().Format(time.RFC3339) },
		"ago": func(d string) (string, error) {
			dur, err := time.ParseDuration(d)
			if err != nil {
				return "", fmt.Errorf("ago %q: %w", d, err)
			}
			return b.now().Add(-dur).UTC().Format(time.RFC3339), nil
		},
		"uuid": NewUUID,
	}
	t, err := template.New("body").Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("parse body template: %w", err)
	}
	b.tmpl = t
	if _, err := b.Render(Omit()); err != nil {
		return nil, err
	}
	return b, nil
}

// Load reads a body template file; an empty path gives the default body.
func Load(path string) (*Body, error) {
	if path == "" {
		return New(Default, nil)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("BODY_TEMPLATE: %w", err)
	}
	b, err := New(string(text), nil)
	if err != nil {
		return nil, fmt.Errorf("BODY_TEMPLATE %s: %w", path, err)
	}
	return b, nil
}

// BucketField says what happens to the top-level device_bucket field.
type BucketField struct {
	set   bool
	value any
}

// Omit removes device_bucket from the body.
func Omit() BucketField { return BucketField{} }

// Bucket sets device_bucket to the string v (valid or not).
func Bucket(v string) BucketField { return BucketField{set: true, value: v} }

// BucketValue sets device_bucket to any JSON value (a number, null, an object).
func BucketValue(v any) BucketField { return BucketField{set: true, value: v} }

// Render executes the template and applies f to device_bucket. The result is
// compact JSON of a top-level object.
func (b *Body) Render(f BucketField) ([]byte, error) {
	var buf bytes.Buffer
	if err := b.tmpl.Execute(&buf, nil); err != nil {
		return nil, fmt.Errorf("render body: %w", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("rendered body is not a JSON object: %.80q", buf.String())
	}
	delete(obj, "device_bucket")
	if f.set {
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("encode device_bucket: %w", err)
		}
		obj["device_bucket"] = v
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode body: %w", err)
	}
	return out, nil
}

// NewDeviceBucket returns a fresh random device bucket: 64 lowercase hex
// characters, as the PRD's SHA-256 device hash.
func NewDeviceBucket() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// NewUUID returns a random (version 4) UUID, used for Idempotency-Key values.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
