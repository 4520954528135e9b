package tagexpr

import "testing"

func TestParseTags(t *testing.T) {
	tags := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	for _, tc := range []struct {
		expr string
		tags map[string]bool
		want bool
	}{
		{"", tags(), true},
		{"@AC1", tags("@AC1"), true},
		{"not @AC1", tags("@AC1"), false},
		{"not @AC1", tags("@AC2"), true},
		{"@AC1 or @AC2", tags("@AC2"), true},
		{"@AC1 and @extended", tags("@AC1"), false},
		{"@AC1 or @AC2 and @x", tags("@AC1"), true},    // and binds tighter
		{"(@AC1 or @AC2) and @x", tags("@AC1"), false}, // parentheses
		{"not (@AC1 or @AC2)", tags("@AC3"), true},     //
		{`@a\ b`, tags("@a b"), true},                  // escaped space
		{"@AC3 && ~@extended", tags("@AC3"), true},     // godog's form
		{"@AC3 && ~@extended", tags("@AC3", "@extended"), false},
		{"@AC1,@AC3", tags("@AC3"), true},
	} {
		e, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		if got := e(tc.tags); got != tc.want {
			t.Errorf("%q on %v = %v, want %v", tc.expr, tc.tags, got, tc.want)
		}
	}
	for _, bad := range []string{"@AC1&&", "&&@AC1", "@AC1,", "~", "@AC1 and", "or @AC1", "(@AC1", "@AC1)", "AC1", "@AC1 @AC2", "not", "@", `@a\`} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) gave no error", bad)
		}
	}
}
