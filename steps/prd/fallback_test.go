package prd

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/rlspec/rlspec/bodytmpl"
)

// Every invalid device_bucket is not 64 hex characters, and is fresh on
// every call where its kind allows, so that scenarios never share a bucket
// on a target that keys by the invalid value itself.
func TestInvalidBucketsAreInvalidAndFresh(t *testing.T) {
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	valid := regexp.MustCompile(`^[0-9a-f]{64}$`)
	value := func(kind string) string {
		f, err := invalidBucket(kind)
		if err != nil {
			t.Fatal(err)
		}
		b, err := body.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(m["device_bucket"])
		return string(raw)
	}
	for _, kind := range []string{"not-a-hash", "63 hex", "65 hex", "64 non-hex", "empty", "number"} {
		a, b := value(kind), value(kind)
		if valid.MatchString(a[1:max(1, len(a)-1)]) {
			t.Errorf("%s: %s is a valid device_bucket", kind, a)
		}
		if kind != "empty" && a == b {
			t.Errorf("%s: the same value %s twice", kind, a)
		}
	}
	if _, err := invalidBucket("nonsense"); err == nil {
		t.Error("an unknown kind is accepted")
	}
}
