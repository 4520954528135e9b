package acceptance

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/rlspec/rlspec/acceptance/tagexpr"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps"
)

// selectScenarios evaluates the TAGS expression against every scenario of
// prof in fsys (a scenario belongs to the profile of its @profile: tag,
// or to prd without one), here and before godog runs, and returns the
// filter that makes godog run exactly those: their @id tags joined with
// godog's "or" (godog's own filter knows only its older syntax and panics
// on some malformed input). It returns how many scenarios (outline rows
// counted) were selected; an empty expression selects all of the profile.
func selectScenarios(fsys fs.FS, expr string, prof profile.Name) (string, int, error) {
	filter, n, _, err := selectClaimed(fsys, expr, prof, nil)
	return filter, n, err
}

// selectClaimed is selectScenarios leaving out the scenarios of extended
// features (tag @feature:<name>) that claims says are not claimed (nil:
// all are); those come back as SKIPPED results, "not claimed".
func selectClaimed(fsys fs.FS, expr string, prof profile.Name, claims func(profile.Feature) bool) (string, int, []steps.ScenarioResult, error) {
	var unclaimed []steps.ScenarioResult
	match, err := tagexpr.Parse(expr)
	if err != nil {
		return "", 0, nil, fmt.Errorf("TAGS=%q is not a tag expression: %w", expr, err)
	}
	pickles, err := featurePickles(fsys)
	if err != nil {
		return "", 0, nil, err
	}
	chosen := map[string]bool{} // id tag → selected
	n := 0
	for _, p := range pickles {
		tags := map[string]bool{}
		id := ""
		of := profile.PRD
		claimed := true
		var clauses []clause.ID
		for _, t := range p.Tags {
			if id := clause.ID(strings.TrimPrefix(t.Name, "@")); id.Known() {
				clauses = append(clauses, id)
			}
			tags[t.Name] = true
			if name, ok := strings.CutPrefix(t.Name, "@profile:"); ok {
				of = profile.Name(name)
			}
			if f, ok := strings.CutPrefix(t.Name, "@feature:"); ok && claims != nil && !claims(profile.Feature(f)) {
				claimed = false
			}
			if strings.HasPrefix(t.Name, "@id:") {
				id = t.Name
			}
		}
		if id == "" {
			return "", 0, nil, fmt.Errorf("scenario %q has no @id tag, so TAGS cannot select it", p.Name)
		}
		sel := of == prof && match(tags)
		if sel && !claimed {
			unclaimed = append(unclaimed, steps.ScenarioResult{ID: strings.TrimPrefix(id, "@id:"), Name: p.Name, Feature: p.Uri,
				Profile: string(of), Clauses: clauses, Status: steps.Skipped, Reason: NotClaimed, NotClaimed: true})
			sel = false
		}
		if prev, seen := chosen[id]; seen && prev != sel {
			return "", 0, nil, fmt.Errorf("TAGS=%q selects only some rows of %s, which rlspec cannot run apart", expr, id)
		}
		chosen[id] = sel
		if sel {
			n++
		}
	}
	var ids []string
	for id, sel := range chosen {
		if sel {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ","), n, unclaimed, nil
}

// NotClaimed is the reason of a scenario skipped because the
// implementation does not claim its extended feature.
const NotClaimed = "not claimed"

// featurePickles compiles every *.feature file of fsys into its scenarios.
func featurePickles(fsys fs.FS) ([]*messages.Pickle, error) {
	paths, err := fs.Glob(fsys, "*.feature")
	if err != nil {
		return nil, err
	}
	var out []*messages.Pickle
	ids := (&messages.UUID{}).NewId
	for _, path := range paths {
		f, err := fsys.Open(path)
		if err != nil {
			return nil, err
		}
		doc, err := gherkin.ParseGherkinDocument(f, ids)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", path, err)
		}
		out = append(out, gherkin.Pickles(*doc, path, ids)...)
	}
	return out, nil
}

// CheckTags reports a TAGS value that is not a tag expression, so that the
// CLI can refuse it before it starts a target.
func CheckTags(expr string) error {
	_, _, err := selectScenarios(features.FS, expr, profile.PRD)
	return err
}

// turns orders the scenarios tags selects as godog starts them and marks
// those that run alone (steps.RunsAlone).
func turns(fsys fs.FS, tags string) (*steps.Turns, error) {
	ids, alone, err := runOrder(fsys, tags)
	if err != nil {
		return nil, err
	}
	return steps.NewTurns(ids, func(id string) bool { return alone[id] }), nil
}

// runOrder lists the scenarios tags selects (a comma list of @id tags) in
// the order godog starts them — features by name, scenarios in file order
// — and which of them run alone.
func runOrder(fsys fs.FS, tags string) ([]string, map[string]bool, error) {
	selected := map[string]bool{}
	for _, t := range strings.Split(tags, ",") {
		selected[strings.TrimSpace(t)] = true
	}
	pickles, err := featurePickles(fsys)
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	alone := map[string]bool{}
	for _, p := range pickles {
		names := make([]string, len(p.Tags))
		id := ""
		for i, t := range p.Tags {
			names[i] = t.Name
			if strings.HasPrefix(t.Name, "@id:") {
				id = t.Name
			}
		}
		if !selected[id] {
			continue
		}
		id = strings.TrimPrefix(id, "@id:")
		ids = append(ids, id)
		alone[id] = steps.RunsAlone(names)
	}
	return ids, alone, nil
}
