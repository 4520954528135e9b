package envflag

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

// The environment is the default, the flag wins, and a malformed
// environment value is one sentence naming the variable — unless the flag
// overrides it.
func TestEnvironmentUnderFlags(t *testing.T) {
	var (
		n    int
		d    time.Duration
		on   bool
		name string
	)
	getenv := Map(map[string]string{"N": "many", "D": "90", "ON": "yes", "NAME": "env"})
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Var(Value(getenv, "N", (*IntValue)(&n)), "n", "a number (N)")
	DurationVar(fs, getenv, &d, "d", "D", "a duration")
	BoolVar(fs, getenv, &on, "on", "ON", "a switch")
	StringVar(fs, getenv, &name, "name", "NAME", "a name")
	if err := Parse(fs, []string{"-name", "flag"}, "summary", io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := Errors(fs); err == nil || !strings.Contains(err.Error(), `N: "many" is not an integer`) {
		t.Fatalf("Errors = %v, want N named", err)
	}
	if d != 90*time.Second || !on || name != "flag" {
		t.Fatalf("d %s on %v name %q", d, on, name)
	}
	if !Given(fs, getenv, "name", "NAME") || !Given(fs, Map(nil), "name", "NAME") || Given(fs, Map(nil), "d", "D") {
		t.Fatal("Given")
	}
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Var(Value(getenv, "N", (*IntValue)(&n)), "n", "a number (N)")
	if err := Parse(fs, []string{"-n", "7"}, "", io.Discard); err != nil || Errors(fs) != nil || n != 7 {
		t.Fatalf("the flag over a bad environment: n %d, %v, %v", n, err, Errors(fs))
	}
	if err := Parse(fs, []string{"-x"}, "", io.Discard); err == nil || !strings.Contains(err.Error(), "t -h lists the flags") {
		t.Fatalf("unknown flag: %v", err)
	}
}
