package features_test

import (
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/features"
)

// mentioned finds clause IDs named in prose: AC1…AC9, FR-1…FR-8.
var mentioned = regexp.MustCompile(`\b(AC\d+|FR-\d+)\b`)

// bracket is the clause a scenario's name announces: "AC1-01 [AC1] …".
var bracket = regexp.MustCompile(`\[([^\]]+)\]`)

// scenarioID is the one scheme of scenario ids: a clause the scenario is
// tagged with (as the clause registry spells it) or, for a check beyond the
// PRD's text (@extended), EXT-<AREA>; then a two-digit number; an outline's
// rows add .<row> (SL-1-01, FAIL-1-01, EXT-BAD-01.3).
var scenarioID = regexp.MustCompile(`^([A-Z]+(?:-?[0-9]+)?|EXT-[A-Z0-9]+)-[0-9]{2}$`)

// verbatim is a quote of the spec's own sentence: `"AC5: GIVEN … ."`.
var verbatim = regexp.MustCompile(`^"(AC\d+): (GIVEN .*?)"`)

func parse(t *testing.T, in io.Reader) *messages.GherkinDocument {
	t.Helper()
	doc, err := gherkin.ParseGherkinDocument(in, (&messages.Incrementing{}).NewId)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// problems lists what is wrong with the clauses of one feature: a tag
// that is not a registered clause (other than a scenario's @id:), a
// clause a scenario names (in its [bracket] or its quoted description)
// without carrying its tag, a description that does not open with its
// quote or quotes the spec's sentence ("AC5: GIVEN …") other than as
// registered, and a clause the feature's title names that no scenario
// carries.
func problems(doc *messages.GherkinDocument) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, tag := range doc.Feature.Tags {
		bad("feature-level tag %s: tag scenarios instead", tag.Name)
	}
	tagged := map[clause.ID]bool{}
	for _, child := range doc.Feature.Children {
		sc := child.Scenario
		if sc == nil {
			continue
		}
		ids := map[clause.ID]bool{}
		hasID := false
		tags := sc.Tags
		for _, ex := range sc.Examples { // an outline's rows may carry their @id and @profile
			tags = append(slices.Clone(tags), ex.Tags...)
		}
		for _, tag := range tags {
			if strings.HasPrefix(tag.Name, "@id:") {
				hasID = true
				continue
			}
			if strings.HasPrefix(tag.Name, "@profile:") || strings.HasPrefix(tag.Name, "@feature:") || strings.HasPrefix(tag.Name, "@align:") {
				continue // its profile, extended feature or alignment (acceptance selects by them)
			}
			id, err := clause.Parse(tag.Name)
			if err != nil {
				bad("%s: tag %s: %v (register it in package clause)", sc.Name, tag.Name, err)
				continue
			}
			ids[id], tagged[id] = true, true
		}
		if !hasID || len(ids) == 0 {
			bad("%s: needs an @id: tag and a clause tag", sc.Name)
		}
		for _, tag := range tags {
			if id, ok := strings.CutPrefix(tag.Name, "@id:"); ok {
				if msg := offScheme(id, ids); msg != "" {
					bad("%s: id %s %s", sc.Name, id, msg)
				}
			}
		}
		for _, msg := range rowsOffScheme(sc) {
			bad("%s: %s", sc.Name, msg)
		}
		desc := strings.Join(strings.Fields(sc.Description), " ")
		if !strings.HasPrefix(desc, `"`) {
			bad("%s: the description does not open with the quoted clause", sc.Name)
		}
		named := mentioned.FindAllString(desc, -1)
		if m := bracket.FindStringSubmatch(sc.Name); m != nil {
			named = append(named, m[1])
		} else {
			bad("%s: the name announces no [clause]", sc.Name)
		}
		for _, s := range named {
			id, err := clause.Parse(s)
			if err != nil {
				bad("%s: names %s: %v", sc.Name, s, err)
			} else if !ids[id] {
				bad("%s: names %s but is not tagged %s", sc.Name, id, id.Tag())
			}
		}
		if m := verbatim.FindStringSubmatch(desc); m != nil {
			if got, want := strings.TrimSuffix(m[2], "."), clause.ID(m[1]).Text(); got != want {
				bad("%s: quotes %s as %q; the spec's sentence is %q", sc.Name, m[1], got, want)
			}
		}
	}
	for _, s := range mentioned.FindAllString(doc.Feature.Name, -1) {
		if id, err := clause.Parse(s); err != nil || !tagged[id] {
			bad("the title names %s, which no scenario is tagged with", s)
		}
	}
	return out
}

// offScheme says how id breaks the scheme of scenarioID for a scenario
// tagged with clauses ids, "" when it keeps it.
func offScheme(id string, ids map[clause.ID]bool) string {
	m := scenarioID.FindStringSubmatch(id)
	switch {
	case m == nil:
		return "is not <clause>-NN or EXT-<AREA>-NN"
	case strings.HasPrefix(m[1], "EXT-") && !ids[clause.Extended]:
		return "is EXT- but the scenario is not tagged @extended"
	case !strings.HasPrefix(m[1], "EXT-") && !ids[clause.ID(m[1])]:
		return "names a clause the scenario is not tagged with"
	}
	return ""
}

// rowsOffScheme lists an outline's rows whose "id" column is neither the
// id of their Examples block (its own @id:, else the scenario's) nor that
// id with .<n>.
func rowsOffScheme(sc *messages.Scenario) []string {
	var out []string
	for _, ex := range sc.Examples {
		id := ""
		for _, tag := range append(slices.Clone(sc.Tags), ex.Tags...) {
			if v, ok := strings.CutPrefix(tag.Name, "@id:"); ok {
				id = v // the block's own tag comes last and wins
			}
		}
		col := -1
		if ex.TableHeader != nil {
			for i, c := range ex.TableHeader.Cells {
				if c.Value == "id" {
					col = i
				}
			}
		}
		for _, row := range ex.TableBody {
			if col < 0 {
				break
			}
			if v := row.Cells[col].Value; v != id && !regexp.MustCompile(`^`+regexp.QuoteMeta(id)+`\.[0-9]+$`).MatchString(v) {
				out = append(out, fmt.Sprintf("outline row %s is neither %s nor %s.<n>", v, id, id))
			}
		}
	}
	return out
}

// Every feature carries registered clauses only, and every scenario's
// quoted clause matches its tags.
func TestFeatureTagsAreClauses(t *testing.T) {
	names, err := fs.Glob(features.FS, "*.feature")
	if err != nil || len(names) == 0 {
		t.Fatalf("no features: %v", err)
	}
	for _, name := range names {
		f, err := features.FS.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		doc := parse(t, f)
		f.Close()
		for _, p := range problems(doc) {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// problems finds each kind of wrong clause in a feature.
func TestProblemsHasTeeth(t *testing.T) {
	const good = `Feature: Spending (AC1)

  @AC1 @id:AC1-01
  Scenario: AC1-01 [AC1] first request
    "AC1: the first request gets 200."
    When I send a ride to the bucket
`
	if p := problems(parse(t, strings.NewReader(good))); len(p) != 0 {
		t.Fatalf("a good feature has problems: %v", p)
	}
	for name, mutate := range map[string][2]string{
		"unknown tag":        {"@AC1 @id:", "@AC1 @AC10 @id:"},
		"untagged bracket":   {"[AC1]", "[AC2]"},
		"untagged mention":   {`"AC1: the`, `"AC1 / FR-4: the`},
		"unquoted":           {`"AC1: the first request gets 200."`, "the first request"},
		"no id":              {" @id:AC1-01", ""},
		"misquoted sentence": {`"AC1: the first request gets 200."`, `"AC1: GIVEN clean bucket WHEN POST THEN 429."`},
		"title names more":   {"(AC1)", "(AC1, AC2)"},
		"id off the scheme":  {"@id:AC1-01", "@id:RL-AC1-01"},
		"id of another":      {"@id:AC1-01", "@id:AC2-01"},
	} {
		bad := strings.Replace(good, mutate[0], mutate[1], 1)
		if bad == good {
			t.Fatalf("%s: mutation did not apply", name)
		}
		if p := problems(parse(t, strings.NewReader(bad))); len(p) == 0 {
			t.Errorf("%s: no problem found in\n%s", name, bad)
		}
	}
}
