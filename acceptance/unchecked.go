package acceptance

import (
	"fmt"
	"io/fs"
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

// AlignTag marks a scenario that reads one WINDOW_ALIGN only
// (@align:key-grid): it runs under that alignment and no other.
const AlignTag = "@align:"

// unreadAlign is why the scenarios of tc's profile not tagged with its
// WINDOW_ALIGN cannot be trusted with it ("" when they can), as the
// profile's entry says (Profile.Unread): the fixed-window scenarios read
// epoch and first-request windows, and would judge a grid as the epoch;
// only those tagged @align:<a> read a grid.
func unreadAlign(tc service.Config) string { return unreadAlignOf(tc.Profile, tc.WindowAlign) }

func unreadAlignOf(p profile.Name, a profile.Align) string {
	if profile.Of(p).ReadsAlign(a) {
		return ""
	}
	return fmt.Sprintf("%s: the %s scenarios not tagged %s%s do not yet read WINDOW_ALIGN=%s", NotYetChecked, p, AlignTag, a, a)
}

// AwaitingScenarios reports whether no scenario can check any of ids on
// profile p served with alignment a yet: none is tagged with them, or the
// scenarios of p do not read a and none tagged @align:<a> checks one of
// ids. A fault that breaks only such clauses waits for its scenarios
// (selftest demands nothing of it).
func AwaitingScenarios(p profile.Name, a profile.Align, ids ...clause.ID) (bool, error) {
	if unreadAlignOf(profile.Of(p).Name, a) != "" {
		aligned, err := alignedScenarios(features.FS, a)
		if err != nil {
			return false, err
		}
		for _, tags := range aligned {
			for _, id := range ids {
				if tags[id.Tag()] {
					return false, nil
				}
			}
		}
		return true, nil
	}
	pending, err := Unchecked(ids...)
	return len(pending) == len(ids), err
}

// alignedScenarios are the tags of each scenario of fsys tagged
// @align:<a>, by its @id tag.
func alignedScenarios(fsys fs.FS, a profile.Align) (map[string]map[string]bool, error) {
	pickles, err := featurePickles(fsys)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]bool{}
	for _, p := range pickles {
		tags := map[string]bool{}
		id := ""
		for _, t := range p.Tags {
			tags[t.Name] = true
			if strings.HasPrefix(t.Name, "@id:") {
				id = t.Name
			}
		}
		if tags[AlignTag+string(a)] {
			out[id] = tags
		}
	}
	return out, nil
}

// byAlign splits the selected scenarios (filter, @id tags comma-joined)
// by tc's alignment: those tagged @align:<b> for another b are left out
// (they check nothing under a); under an alignment the untagged ones do
// not read, only those tagged @align:<a> run (run, n) and the others are
// returned in skip.
func byAlign(fsys fs.FS, tc service.Config, filter string) (run string, n int, skip string, err error) {
	pickles, err := featurePickles(fsys)
	if err != nil {
		return "", 0, "", err
	}
	alignOf := map[string]string{} // @id tag → its alignment tag's value, "" none
	for _, p := range pickles {
		id, a := "", ""
		for _, t := range p.Tags {
			if strings.HasPrefix(t.Name, "@id:") {
				id = t.Name
			}
			if v, ok := strings.CutPrefix(t.Name, AlignTag); ok {
				a = v
			}
		}
		alignOf[id] = a
	}
	unread := unreadAlign(tc) != ""
	var runs, skips []string
	for _, id := range strings.Split(filter, ",") {
		switch a := alignOf[id]; {
		case id == "":
		case a != "" && a != string(tc.WindowAlign):
		case unread && a == "":
			skips = append(skips, id)
		default:
			runs = append(runs, id)
		}
	}
	return strings.Join(runs, ","), len(runs), strings.Join(skips, ","), nil
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
// godog filter tags selecting the scenarios) the scenarios tc's alignment
// cannot be trusted with and the core clauses no scenario checks yet; it
// returns the filter and count of the scenarios left to run.
func withUnchecked(tc service.Config, expr, tags string, skipped []steps.ScenarioResult) (string, []steps.ScenarioResult, int, error) {
	tags, n, skip, err := byAlign(features.FS, tc, tags)
	if err != nil {
		return "", nil, 0, err
	}
	if skip != "" {
		all, err := skipAll(features.FS, skip, tc.Profile, unreadAlign(tc))
		if err != nil {
			return "", nil, 0, err
		}
		skipped = append(skipped, all...)
	}
	notYet, err := unchecked(features.FS, expr, tc.Profile)
	if err != nil {
		return "", nil, 0, err
	}
	return tags, append(skipped, notYet...), n, nil
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
