package docgen

import (
	"strings"
	"testing"
)

// TestDocsAreCurrent fails when a committed document's generated tables
// differ from the registries: run go generate ./docs and commit.
func TestDocsAreCurrent(t *testing.T) {
	stale, err := Stale("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("generated tables are stale in %s: run `go generate ./docs` and commit", strings.Join(stale, ", "))
	}
}

func TestRewrite(t *testing.T) {
	gen := func(name string) (string, bool) {
		switch name {
		case "n":
			return "42", true
		case "t":
			return "| a |\n| --- |\n", true
		}
		return "", false
	}
	for in, want := range map[string]string{
		"x <!-- gen:n -->7<!-- /gen:n --> y":          "x <!-- gen:n -->42<!-- /gen:n --> y",
		"<!-- gen:t -->\nold\nold\n<!-- /gen:t -->\n": "<!-- gen:t -->\n| a |\n| --- |\n<!-- /gen:t -->\n",
		"no regions": "no regions",
	} {
		got, err := Rewrite(in, gen)
		if err != nil || got != want {
			t.Errorf("Rewrite(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"<!-- gen:zz -->x<!-- /gen:zz -->", "<!-- gen:n -->x<!-- /gen:t -->"} {
		if _, err := Rewrite(bad, gen); err == nil {
			t.Errorf("Rewrite(%q): no error", bad)
		}
	}
}
