package clause

import (
	"strings"
	"testing"
)

func TestLookupEveryRegisteredClause(t *testing.T) {
	for _, c := range All() {
		got, ok := Lookup(c.ID)
		if !ok || got != c {
			t.Errorf("Lookup(%q) = %+v, %v", c.ID, got, ok)
		}
		if c.Text == "" || c.Source == "" || c.Profile == "" {
			t.Errorf("%s: incomplete entry %+v", c.ID, c)
		}
	}
	if _, ok := Lookup("AC10"); ok {
		t.Error("Lookup(AC10) found a clause that is not registered")
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]ID{"@AC3": AC3, "FR-7": FR7, " SL-10 ": SL10, "@extended": Extended} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Parse("@AC3&&"); err == nil || !strings.Contains(err.Error(), "unknown clause") {
		t.Errorf("Parse of a malformed tag: err = %v", err)
	}
}

func TestRefs(t *testing.T) {
	r := Of(AC3, FR3)
	if r.String() != "AC3 / FR-3" || r.Primary() != AC3 || !r.Has(FR3) || r.Has(AC1) {
		t.Errorf("Refs: %q primary %q", r, r.Primary())
	}
	if Of().Primary() != "" {
		t.Error("empty Refs has a primary clause")
	}
}

func TestForProfile(t *testing.T) {
	counts := map[string]int{"prd": 18, "sliding-log": 10, "fixed-window": 7, "token-bucket": 8, "sliding-window-counter": 7, "leaky-bucket": 5, "any": 10}
	for p, n := range counts {
		if got := len(ForProfile(p)); got != n {
			t.Errorf("ForProfile(%q): %d clauses, want %d", p, got, n)
		}
	}
}
