package acceptance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/profile"
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

// TestCucumberHoldsTheScenariosJUnitHolds: the scenarios of features not
// claimed (left out of godog's run) are in cucumber.json as in junit.xml,
// SKIPPED. The report directory's name has a comma, which godog's format
// string would have cut.
func TestCucumberHoldsTheScenariosJUnitHolds(t *testing.T) {
	url := faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) { cfg.Limit, cfg.Window = 5, time.Hour })
	tc := service.DefaultConfig()
	tc.URL, tc.Limit, tc.Features = url, 5, []profile.Feature{}
	set := DefaultSettings()
	set.Tags, set.ReportDir = "@id:AC1-01 or @MI-1", filepath.Join(t.TempDir(), "reports,ci")
	rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(set.ReportDir, "cucumber.json"))
	if err != nil {
		t.Fatal(err)
	}
	var features []struct {
		URI      string
		Elements []struct {
			Name  string
			Steps []struct{ Result struct{ Status string } }
		}
	}
	if err := json.Unmarshal(raw, &features); err != nil {
		t.Fatalf("cucumber.json: %v\n%s", err, raw)
	}
	names := map[string]string{}
	for _, f := range features {
		for _, e := range f.Elements {
			names[e.Name] = e.Steps[len(e.Steps)-1].Result.Status
		}
	}
	if len(rep.Results) < 3 || len(names) != len(rep.Results) {
		t.Fatalf("junit has %d scenarios, cucumber.json %d: %v", len(rep.Results), len(names), names)
	}
	for _, r := range rep.Results {
		st, ok := names[r.Name]
		if !ok || (r.NotClaimed && st != "skipped") {
			t.Errorf("%s (%s): cucumber.json has %q", r.Name, r.Status, st)
		}
	}
}
