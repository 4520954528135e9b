package docgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
)

// tables makes the regions' text from the registries.
type tables struct {
	root      string
	scenarios []acceptance.ScenarioInfo
}

func newTables(root string) (*tables, error) {
	sc, err := acceptance.Catalog(features.FS)
	if err != nil {
		return nil, fmt.Errorf("scenario catalog: %w", err)
	}
	return &tables{root: root, scenarios: sc}, nil
}

// region is the text of the region called name.
func (t *tables) region(name string) (string, bool) {
	switch name {
	case "profiles":
		return t.profiles(), true
	case "clauses":
		return t.clauses(), true
	case "features":
		return t.features(), true
	case "faults":
		return faultTable(), true
	case "assumptions":
		return t.assumptions(), true
	case "fault-count":
		return fmt.Sprint(len(faults.All())), true
	case "profile-names":
		return codeList(profile.Names()), true
	case "dialect-names":
		return codeList(dialect.Dialects()), true
	case "reset-formats":
		return codeList(dialect.ResetFormats()), true
	case "aligns":
		return aligns(), true
	case "packages":
		s, err := packages(t.root)
		if err != nil {
			return "error: " + err.Error(), true
		}
		return s, true
	}
	if n, ok := strings.CutPrefix(name, "design:"); ok {
		return t.design(profile.Name(n))
	}
	return "", false
}

// ofProfile are the ids of p's scenarios that check feature f ("" core).
func (t *tables) ofProfile(p profile.Name, f profile.Feature) []string {
	var ids []string
	for _, s := range t.scenarios {
		if s.Profile == p && featureOf(s) == f {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// featureOf is the feature a scenario checks: its @feature: tag, else that
// of its clauses.
func featureOf(s acceptance.ScenarioInfo) profile.Feature {
	if s.Feature != "" {
		return s.Feature
	}
	return profile.FeatureOfAny(s.Clauses)
}

func (t *tables) profiles() string {
	var b strings.Builder
	b.WriteString("| `PROFILE` | seed | design | core clauses | core scenarios | extended features (scenarios) |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, p := range profile.All() {
		var feats []string
		for _, f := range p.Features() {
			if n := len(t.ofProfile(p.Name, f)); n > 0 {
				feats = append(feats, fmt.Sprintf("`%s` (%d)", f, n))
			}
		}
		name := "`" + string(p.Name) + "`"
		if p.Name == profile.PRD {
			name += " (default)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s |\n", name, p.Seed, p.Algorithm, ids(p.Core()),
			len(t.ofProfile(p.Name, "")), strings.Join(feats, ", "))
	}
	fmt.Fprintf(&b, "| `%s` | — | every profile above, at once, against the embedded reference | — | — | — |\n", profile.Every)
	return b.String()
}

func (t *tables) clauses() string {
	var b strings.Builder
	b.WriteString("| clause | profile | sentence | scenarios |\n| --- | --- | --- | --- |\n")
	for _, c := range clause.All() {
		var sc []string
		for _, s := range t.scenarios {
			if slices.Contains(s.Clauses, c.ID) {
				sc = append(sc, s.ID)
			}
		}
		who := c.Profile
		if f := profile.FeatureOf(c.ID); f != "" {
			who += ", feature `" + string(f) + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.ID, who, cell(c.Text), orDash(strings.Join(sc, ", ")))
	}
	return b.String()
}

func (t *tables) features() string {
	var b strings.Builder
	b.WriteString("| feature | clauses | profiles that may claim it | scenarios |\n| --- | --- | --- | --- |\n")
	for _, f := range profile.Features() {
		var who, sc []string
		for _, p := range profile.All() {
			if slices.Contains(p.Features(), f) {
				who = append(who, string(p.Name))
			}
			sc = append(sc, t.ofProfile(p.Name, f)...)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f, orDash(ids(f.Clauses())), strings.Join(who, ", "), orDash(strings.Join(sc, ", ")))
	}
	return b.String()
}

func faultTable() string {
	var b strings.Builder
	b.WriteString("| fault | profile | breaks | wraps | defect | seed and line | must fail |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, f := range faults.All() {
		must := slices.Clone(f.Detectors.Scenarios)
		if f.Detectors.Race {
			must = append(must, "race hunt")
		}
		if f.Detectors.Replicas > 1 {
			must = append(must, fmt.Sprintf("(%d instances)", f.Detectors.Replicas))
		}
		p := f.Profile
		if p == "" {
			p = profile.PRD
		}
		switch {
		case len(must) == 0 && (f.Align == profile.AlignKeyGrid || f.Align == profile.AlignGrid):
			must = []string{"— (the scenarios do not read WINDOW_ALIGN=" + string(f.Align) + " yet)"}
		case len(must) == 0:
			must = []string{"— (no scenario checks " + f.Breaks.String() + " yet)"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", f.Name, p, f.Breaks, wraps(f), cell(f.Description), orDash(cell(f.Seed)),
			strings.Join(must, ", "))
	}
	return b.String()
}

// wraps names the parts of the server a fault replaces.
func wraps(f fault.Fault) string {
	cfg := fakeserver.DefaultConfig()
	cfg.Profile = f.Profile
	w := f.Wrap(cfg)
	var parts []string
	for _, p := range []struct {
		name string
		set  bool
	}{{"model", w.Model != nil}, {"store", w.Store != nil}, {"keyer", w.Keyer != nil}, {"handler", w.Handler != nil}} {
		if p.set {
			parts = append(parts, p.name)
		}
	}
	return orDash(strings.Join(parts, ", "))
}

func ids(xs []clause.ID) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

func codeList[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = "`" + string(x) + "`"
	}
	return strings.Join(s, ", ")
}

// cell is s safe in a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
