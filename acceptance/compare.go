package acceptance

import (
	"html/template"
	"regexp"
	"strings"
)

// number is a value a check compares: an integer, possibly signed.
var number = regexp.MustCompile(`-?\d+`)

// compared renders a violation's expected and actual values side by side,
// marking each number of the actual value that the expected value does not
// contain (the values that differ).
func compared(expected, actual string) template.HTML {
	want := map[string]bool{}
	for _, n := range number.FindAllString(expected, -1) {
		want[n] = true
	}
	var b strings.Builder
	last := 0
	for _, loc := range number.FindAllStringIndex(actual, -1) {
		n := actual[loc[0]:loc[1]]
		if want[n] {
			continue
		}
		b.WriteString(template.HTMLEscapeString(actual[last:loc[0]]))
		b.WriteString("<mark>" + template.HTMLEscapeString(n) + "</mark>")
		last = loc[1]
	}
	b.WriteString(template.HTMLEscapeString(actual[last:]))
	return template.HTML(`<table class="cmp"><tr><th>Expected</th><td class="expected">` +
		template.HTMLEscapeString(expected) + `</td></tr><tr><th>Actual</th><td class="actual">` +
		b.String() + `</td></tr></table>`)
}
