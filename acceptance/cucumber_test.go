package acceptance

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/rlspec/rlspec/service"
)

// TestMergeCucumber: PROFILE=all's cucumber.json holds every profile's
// features, each named by its profile.
func TestMergeCucumber(t *testing.T) {
	cfgs := []Config{{Target: service.Config{Profile: profile.PRD}}, {Target: service.Config{Profile: profile.SlidingLog}}, {Target: service.Config{Profile: profile.FixedWindow}}}
	docs := make([]bytes.Buffer, 3)
	docs[0].WriteString(`[{"id":"quota","uri":"quota.feature","name":"Quota","elements":[{"name":"a"}]}]`)
	docs[1].WriteString(`[{"id":"keys","uri":"keys.feature","name":"Keys"},{"id":"quota","uri":"quota.feature","name":"Quota"}]`)
	var out bytes.Buffer
	if err := mergeCucumber(&out, cfgs, docs); err != nil {
		t.Fatal(err)
	}
	var got []struct{ ID, URI, Name string }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.Bytes())
	}
	want := []string{"prd/quota", "sliding-log/keys", "sliding-log/quota"}
	if len(got) != len(want) {
		t.Fatalf("%d features, want %d: %s", len(got), len(want), out.Bytes())
	}
	for i, f := range got {
		if f.ID != want[i] || f.URI != want[i]+".feature" || f.Name == "" || f.Name[0] != '[' {
			t.Errorf("feature %d: %+v, want id %s", i, f, want[i])
		}
	}
	docs[2].WriteString(`not json`)
	if err := mergeCucumber(&out, cfgs, docs); err == nil {
		t.Error("a broken document merged")
	}
}
