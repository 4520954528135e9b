package docgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// design is the region design:<profile>: the registry's paragraph on the
// design, its core clauses with their sentences and scenarios, and the
// one line that selects it against a target, at the embedded reference's
// quick size.
func (t *tables) design(name profile.Name) (string, bool) {
	p, ok := profile.Lookup(name)
	if !ok || name == "" {
		return "", false
	}
	var b strings.Builder
	b.WriteString(p.Explain + "\n\n| clause | sentence | scenarios |\n| --- | --- | --- |\n")
	core := p.Core()
	for _, c := range clause.All() {
		if !slices.Contains(core, c.ID) {
			continue
		}
		var sc []string
		for _, s := range t.scenarios {
			if s.Profile == p.Name && slices.Contains(s.Clauses, c.ID) {
				sc = append(sc, s.ID)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.ID, cell(c.Text), orDash(strings.Join(sc, ", ")))
	}
	fmt.Fprintf(&b, "\nSelect it (the numbers are the embedded reference's; give your target's):\n\n    %s\n", selectLine(p))
	return b.String(), true
}

// selectLine is the acceptance command for a target of p at its quick
// size, with its default alignment where it takes one.
func selectLine(p profile.Profile) string {
	ps := profile.Params{Limit: p.Quick.Limit, Window: p.Quick.Window, Burst: service.DefaultBurst, Rate: service.DefaultRate}
	words := []string{"PROFILE=" + string(p.Name)}
	if p.SizedByRate() || p.Quick.Limit > 0 { // the PRD's contract sizes it
		words = append(words, strings.ReplaceAll(p.Sizing(ps), ", ", " "))
	}
	if p.TakesSetting(profile.SettingWindowAlign) {
		words = append(words, profile.SettingWindowAlign+"="+string(p.Defaults.Align))
	}
	return strings.Join(append(words, "TARGET_URL=http://127.0.0.1:8080 bin/rlspec acceptance"), " ")
}

// aligns is the region aligns: each WINDOW_ALIGN, where its windows lie,
// the designs that take it and whether their scenarios read it yet.
func aligns() string {
	var b strings.Builder
	b.WriteString("| `WINDOW_ALIGN` | windows | taken by |\n| --- | --- | --- |\n")
	for _, a := range profile.Aligns() {
		var who []string
		for _, p := range profile.All() {
			if !p.TakesAlign(a) {
				continue
			}
			w := string(p.Name)
			if p.Defaults.Align == a {
				w += " (default)"
			}
			if slices.Contains(p.Unread, a) {
				w += " (only the scenarios tagged `@align:` read it yet)"
			}
			who = append(who, w)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", a, cell(a.Meaning()), orDash(strings.Join(who, ", ")))
	}
	return b.String()
}
