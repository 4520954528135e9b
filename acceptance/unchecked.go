package acceptance

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/rlspec/rlspec/acceptance/tagexpr"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// NotYetChecked starts the reason of a core clause reported SKIPPED because
// no scenario checks it yet: a profile whose scenarios are still to be
// written never passes on clauses nothing looked at.
const NotYetChecked = "not yet checked"

// outsideScenarios are core clauses no HTTP scenario can check, with why:
// they are not reported as unchecked.
var outsideScenarios = map[clause.ID]string{
	clause.FR1: "the PRD's table layout, which TARGET_DB seeding relies on",
}

// unchecked is a SKIPPED result for each core clause of prof that no
// scenario of fsys is tagged with, when the TAGS expression selects its
// tag (an empty expression selects all): conformance.json counts them as
// skipped, so the core is "partial" at best, and STRICT=1 fails them.
func unchecked(fsys fs.FS, expr string, prof profile.Name) ([]steps.ScenarioResult, error) {
	match, err := tagexpr.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("TAGS=%q is not a tag expression: %w", expr, err)
	}
	pickles, err := featurePickles(fsys)
	if err != nil {
		return nil, err
	}
	tagged := map[clause.ID]bool{}
	for _, p := range pickles {
		of := profile.PRD
		var ids []clause.ID
		for _, t := range p.Tags {
			if id := clause.ID(strings.TrimPrefix(t.Name, "@")); id.Known() {
				ids = append(ids, id)
			}
			if name, ok := strings.CutPrefix(t.Name, "@profile:"); ok {
				of = profile.Name(name)
			}
		}
		if of == prof {
			for _, id := range ids {
				tagged[id] = true
			}
		}
	}
	var out []steps.ScenarioResult
	for _, id := range profile.Of(prof).Core() {
		tags := map[string]bool{id.Tag(): true, "@profile:" + string(prof): true}
		if _, outside := outsideScenarios[id]; tagged[id] || outside || !match(tags) {
			continue
		}
		out = append(out, steps.ScenarioResult{ID: string(id) + "-00", Name: string(id) + " has no scenario yet", Feature: string(prof) + ".feature",
			Profile: string(prof), Clauses: []clause.ID{id}, Status: steps.Skipped,
			Reason: fmt.Sprintf("%s: rlspec has no scenario of %s yet (%s)", NotYetChecked, id, id.Text())})
	}
	return out, nil
}

// unreadAlign is why the scenarios of tc's profile cannot be trusted with
// its WINDOW_ALIGN yet ("" when they can): the fixed-window scenarios read
// epoch and first-request windows only, and would judge a grid as the
// epoch.
func unreadAlign(tc service.Config) string { return unreadAlignOf(tc.Profile, tc.WindowAlign) }

func unreadAlignOf(p profile.Name, a profile.Align) string {
	if p != profile.FixedWindow || slices.Contains([]profile.Align{"", profile.AlignEpoch, profile.AlignFirstRequest}, a) {
		return ""
	}
	return fmt.Sprintf("%s: the fixed-window scenarios do not yet read WINDOW_ALIGN=%s", NotYetChecked, a)
}

// AwaitingScenarios reports whether no scenario can check any of ids on
// profile p served with alignment a yet: none is tagged with them, or the
// scenarios of p do not read a. A fault that breaks only such clauses
// waits for its scenarios (selftest demands nothing of it).
func AwaitingScenarios(p profile.Name, a profile.Align, ids ...clause.ID) (bool, error) {
	if unreadAlignOf(profile.Of(p).Name, a) != "" {
		return true, nil
	}
	pending, err := Unchecked(ids...)
	return len(pending) == len(ids), err
}

// skipAll turns the selected scenarios of prof (filter, as selectClaimed
// built it) into SKIPPED results with reason: none of them runs.
func skipAll(fsys fs.FS, filter string, prof profile.Name, reason string) ([]steps.ScenarioResult, error) {
	pickles, err := featurePickles(fsys)
	if err != nil {
		return nil, err
	}
	selected := map[string]bool{}
	for _, id := range strings.Split(filter, ",") {
		selected[id] = true
	}
	var out []steps.ScenarioResult
	seen := map[string]bool{}
	for _, p := range pickles {
		var ids []clause.ID
		id := ""
		for _, t := range p.Tags {
			if c := clause.ID(strings.TrimPrefix(t.Name, "@")); c.Known() {
				ids = append(ids, c)
			}
			if strings.HasPrefix(t.Name, "@id:") {
				id = t.Name
			}
		}
		if !selected[id] || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, steps.ScenarioResult{ID: strings.TrimPrefix(id, "@id:"), Name: p.Name, Feature: p.Uri,
			Profile: string(prof), Clauses: ids, Status: steps.Skipped, Reason: reason})
	}
	return out, nil
}

// withUnchecked adds to the skipped results of a run of tc (TAGS expr,
// godog filter tags selecting n scenarios) the scenarios tc's alignment
// cannot be trusted with (n becomes 0) and the core clauses no scenario
// checks yet.
func withUnchecked(tc service.Config, expr, tags string, n int, skipped []steps.ScenarioResult) ([]steps.ScenarioResult, int, error) {
	if reason := unreadAlign(tc); reason != "" && n > 0 {
		all, err := skipAll(features.FS, tags, tc.Profile, reason)
		if err != nil {
			return nil, 0, err
		}
		skipped, n = append(skipped, all...), 0
	}
	notYet, err := unchecked(features.FS, expr, tc.Profile)
	if err != nil {
		return nil, 0, err
	}
	return append(skipped, notYet...), n, nil
}

// Unchecked lists those of ids that no scenario of rlspec's features is
// tagged with, in any profile: clauses nothing can show failing yet (a
// fault breaking only those is waiting for its scenarios).
func Unchecked(ids ...clause.ID) ([]clause.ID, error) {
	pickles, err := featurePickles(features.FS)
	if err != nil {
		return nil, err
	}
	tagged := map[string]bool{}
	for _, p := range pickles {
		for _, t := range p.Tags {
			tagged[t.Name] = true
		}
	}
	var out []clause.ID
	for _, id := range ids {
		if !tagged[id.Tag()] {
			out = append(out, id)
		}
	}
	return out, nil
}
