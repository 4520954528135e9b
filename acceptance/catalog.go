package acceptance

import (
	"io/fs"
	"sort"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// ScenarioInfo is what the feature files say of one scenario: its stable
// id, name, profile, the extended feature it checks ("" core) and the
// clauses it is tagged with. An outline's rows share one id and count once.
type ScenarioInfo struct {
	ID      string
	Name    string
	Profile profile.Name
	Feature profile.Feature
	Clauses []clause.ID
	// Steps are the texts of its steps, every row's for an outline.
	Steps []string
}

// Catalog lists the scenarios of the feature files in fsys, by id.
func Catalog(fsys fs.FS) ([]ScenarioInfo, error) {
	pickles, err := featurePickles(fsys)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	var out []ScenarioInfo
	for _, p := range pickles {
		si := ScenarioInfo{Name: p.Name, Profile: profile.PRD}
		for _, t := range p.Tags {
			name := strings.TrimPrefix(t.Name, "@")
			switch {
			case strings.HasPrefix(name, "id:"):
				si.ID = strings.TrimPrefix(name, "id:")
			case strings.HasPrefix(name, "profile:"):
				si.Profile = profile.Name(strings.TrimPrefix(name, "profile:"))
			case strings.HasPrefix(name, "feature:"):
				si.Feature = profile.Feature(strings.TrimPrefix(name, "feature:"))
			case clause.ID(name).Known():
				si.Clauses = append(si.Clauses, clause.ID(name))
			}
		}
		for _, st := range p.Steps {
			si.Steps = append(si.Steps, st.Text)
		}
		if i, ok := seen[si.ID]; ok {
			out[i].Steps = append(out[i].Steps, si.Steps...)
			continue
		}
		seen[si.ID] = len(out)
		out = append(out, si)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
