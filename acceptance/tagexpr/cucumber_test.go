package tagexpr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Cucumber's published tag-expression cases (testdata/ of
// github.com/cucumber/tag-expressions at commit
// 3f215a498d3176168bb660a2c5c3707a7c8ceb16, copied into
// testdata/cucumber-tag-expressions with its MIT licence), run against
// parseTagExpression, the grammar Parse implements because the module
// proxy does not serve Cucumber's Go implementation. The cases use tags
// without @, which Parse itself refuses (rlspec's one rule on top).
const cucumberCases = "testdata/cucumber-tag-expressions"

// cucumberCase is one entry of the three files: parsing.yml gives
// Formatted, evaluations.yml Tests, errors.yml Error.
type cucumberCase struct {
	Expression string `yaml:"expression"`
	Formatted  string `yaml:"formatted"`
	Error      string `yaml:"error"`
	Tests      []struct {
		Variables []string `yaml:"variables"`
		Result    bool     `yaml:"result"`
	} `yaml:"tests"`
}

// readCucumberCases reads one file, which must hold at least the number of
// cases published (a truncated copy would otherwise pass).
func readCucumberCases(t *testing.T, name string, atLeast int) []cucumberCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(cucumberCases, name))
	if err != nil {
		t.Fatal(err)
	}
	var cases []cucumberCase
	if err := yaml.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(cases) < atLeast {
		t.Fatalf("%s: %d cases, want the %d or more published", name, len(cases), atLeast)
	}
	return cases
}

// parsing.yml: the expression's canonical form, which shows how it was
// grouped (precedence, associativity, escapes).
func TestCucumberTagExpressionParsing(t *testing.T) {
	for _, c := range readCucumberCases(t, "parsing.yml", 23) {
		e, err := parseTagExpression(c.Expression)
		if err != nil {
			t.Errorf("%q: %v", c.Expression, err)
		} else if got := e.String(); got != c.Formatted {
			t.Errorf("%q parsed as %q, want %q", c.Expression, got, c.Formatted)
		}
	}
}

// evaluations.yml: whether a scenario with the given tags is selected.
func TestCucumberTagExpressionEvaluations(t *testing.T) {
	for _, c := range readCucumberCases(t, "evaluations.yml", 7) {
		e, err := parseTagExpression(c.Expression)
		if err != nil {
			t.Errorf("%q: %v", c.Expression, err)
			continue
		}
		for _, tc := range c.Tests {
			tags := map[string]bool{}
			for _, v := range tc.Variables {
				tags[v] = true
			}
			if got := e.eval(tags); got != tc.Result {
				t.Errorf("%q on %q = %v, want %v", c.Expression, tc.Variables, got, tc.Result)
			}
		}
	}
}

// errors.yml: every malformed expression is refused. Cucumber's messages
// ("… could not be parsed because of syntax error: Expected operator.")
// are not compared: rlspec words its own, one line each, which the CLI
// prefixes with TAGS=… (exit 2).
func TestCucumberTagExpressionErrors(t *testing.T) {
	for _, c := range readCucumberCases(t, "errors.yml", 15) {
		e, err := parseTagExpression(c.Expression)
		if err == nil {
			t.Errorf("%q parsed as %q, want Cucumber's error %q", c.Expression, e.String(), c.Error)
		} else if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
			t.Errorf("%q: error %q is not one line", c.Expression, msg)
		}
	}
}
