package junit

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadWhatWriteWrote: a suite written and read back keeps its cases'
// outcomes, messages and properties; a skip without a message still reads
// as skipped.
func TestReadWhatWriteWrote(t *testing.T) {
	var buf bytes.Buffer
	in := Suite{Name: "rlspec acceptance", Cases: []Case{
		{Name: "passes", Properties: []Property{Prop("id", "AC1-01")}},
		{Name: "fails", Failure: &Problem{Message: "429 at 3/20", Type: "Failure", Text: "full"}},
		{Name: "errs", Error: &Problem{Message: "could not run"}},
		{Name: "skips", Skipped: "needs a second instance"},
	}}
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	rep, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tests != 4 || rep.Failures != 1 || rep.Errors != 1 || len(rep.Suites) != 1 || rep.Suites[0].Name != in.Name {
		t.Fatalf("totals %+v", rep)
	}
	got := rep.Suites[0].Cases
	if got[0].Property("id") != "AC1-01" || got[0].Failure != nil || got[0].Skipped != "" ||
		got[1].Failure == nil || got[1].Failure.Message != "429 at 3/20" || got[1].Failure.Text != "full" ||
		got[2].Error == nil || got[2].Error.Message != "could not run" ||
		got[3].Skipped != "needs a second instance" {
		t.Fatalf("cases %+v", got)
	}
	rep, err = Read(strings.NewReader(`<testsuites><testsuite name="x"><testcase name="s"><skipped/></testcase></testsuite></testsuites>`))
	if err != nil || rep.Suites[0].Cases[0].Skipped != NoReason {
		t.Fatalf("a bare <skipped/>: %+v, %v", rep, err)
	}
	if _, err := Read(strings.NewReader("<testsuites><testsuite")); err == nil {
		t.Fatal("a truncated document was read")
	}
}
