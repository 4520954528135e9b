package bodytmpl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestBodyRendersTemplateAndBucket(t *testing.T) {
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b, err := New(`{"at":"{{now}}","before":"{{ago "10m"}}","id":"{{uuid}}","device_bucket":"template"}`, func() time.Time { return fixed })
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		field BucketField
		want  any
		has   bool
	}{
		"set":     {Bucket("abc"), "abc", true},
		"omit":    {Omit(), nil, false},
		"number":  {BucketValue(42), float64(42), true},
		"null":    {BucketValue(nil), nil, true},
		"unicode": {Bucket("ünï"), "ünï", true},
	} {
		t.Run(name, func(t *testing.T) {
			raw, err := b.Render(tc.field)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("not JSON: %s", raw)
			}
			got, has := m["device_bucket"]
			if has != tc.has || got != tc.want {
				t.Fatalf("device_bucket = %v (present %v), want %v (present %v)", got, has, tc.want, tc.has)
			}
			if m["at"] != "2026-01-02T03:04:05Z" || m["before"] != "2026-01-02T02:54:05Z" {
				t.Fatalf("time functions: %v %v", m["at"], m["before"])
			}
			if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(m["id"].(string)) {
				t.Fatalf("uuid %v", m["id"])
			}
		})
	}
}

func TestDefaultBodyIsValid(t *testing.T) {
	b, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := b.Render(Bucket(NewDeviceBucket()))
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(raw) || !strings.Contains(string(raw), `"route_id":"335E"`) {
		t.Fatalf("default body %s", raw)
	}
}

func TestBodyRejectsBadTemplates(t *testing.T) {
	for name, text := range map[string]string{
		"syntax":    `{"a":"{{now"}`,
		"notobject": `[1,2,3]`,
		"notjson":   `{"a":}`,
		"badago":    `{"a":"{{ago "ten"}}"}`,
		"unknown":   `{"a":"{{nope}}"}`,
	} {
		if _, err := New(text, nil); err == nil {
			t.Errorf("%s: accepted %q", name, text)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "body.json")
	if err := os.WriteFile(p, []byte(`{"x":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err != nil {
		t.Fatalf("Load(valid file): %v", err)
	}
}

func TestNewDeviceBucket(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		b := NewDeviceBucket()
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(b) || seen[b] {
			t.Fatalf("bucket %q", b)
		}
		seen[b] = true
	}
}
