package junit

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteCountsAndProperties(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, Suite{Name: "s", Properties: []Property{Prop("seed", 42)}, Cases: []Case{
		{Name: "ok", Properties: []Property{Prop("tag", "@AC1")}},
		{Name: "bad", Failure: &Problem{Message: "m", Type: "Violation", Text: "t"}},
		{Name: "broken", Error: &Problem{Message: "e"}},
		{Name: "later", Skipped: "why"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var doc xmlSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[0]
	if doc.Tests != 4 || doc.Failures != 1 || doc.Errors != 1 || s.Skipped != 1 || s.Properties.Props[0] != (Property{"seed", "42"}) || s.Cases[0].Properties.Props[0].Value != "@AC1" {
		t.Errorf("%+v", doc)
	}
}

func TestWriteError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	if err := WriteError(dir, "rlspec race", "SEED=\"x\" is not an unsigned integer"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil || !strings.Contains(string(b), `errors="1"`) || !strings.Contains(string(b), "is not an unsigned integer") {
		t.Errorf("%v\n%s", err, b)
	}
	if got := ReportDir("", func(string) (string, bool) { return "", false }); got != "reports" {
		t.Errorf("default report dir %q", got)
	}
}
