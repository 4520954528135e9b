// Package clause names every clause rlspec verifies: a typed, stable ID and
// the sentence of the spec (or of the target contract's reading of it) the
// clause stands for. Features tag scenarios with these IDs, violations and
// faults name them, and reports group by them; nothing else spells a clause.
//
// The PRD's clauses come from spec/001 (acceptance criteria AC1…AC9,
// functional requirements FR-1…FR-8) as read by the target contract; the
// other profiles' clauses come from profiles.md.
package clause

import (
	"fmt"
	"sort"
	"strings"
)

// ID is a clause's stable identifier, exactly as it appears in a feature tag
// without the '@' (AC3, FR-7, SL-1, extended).
type ID string

// Clause is one verifiable sentence.
type Clause struct {
	ID      ID
	Profile string // "prd", "sliding-log", …; "any" for features of every profile
	Source  string // where the sentence comes from
	Text    string // the sentence, quoted in features and reports
}

// Tag is the Gherkin tag of the clause ("@AC3").
func (id ID) Tag() string { return "@" + string(id) }

// String is the ID itself.
func (id ID) String() string { return string(id) }

// Text is the clause's sentence ("" for an unknown ID).
func (id ID) Text() string {
	c, _ := Lookup(id)
	return c.Text
}

// Known reports whether id is registered.
func (id ID) Known() bool {
	_, ok := Lookup(id)
	return ok
}

// Refs are the clauses one check or fault bears on, most specific first.
type Refs []ID

// Of builds Refs; it is how a violation or fault names its clauses.
func Of(ids ...ID) Refs { return Refs(ids) }

// String joins the IDs as reports show them: "AC3 / FR-3".
func (r Refs) String() string {
	parts := make([]string, len(r))
	for i, id := range r {
		parts[i] = string(id)
	}
	return strings.Join(parts, " / ")
}

// Primary is the first clause, or "" when there is none.
func (r Refs) Primary() ID {
	if len(r) == 0 {
		return ""
	}
	return r[0]
}

// Has reports whether id is among r.
func (r Refs) Has(id ID) bool {
	for _, x := range r {
		if x == id {
			return true
		}
	}
	return false
}

// Lookup returns the registered clause with that ID.
func Lookup(id ID) (Clause, bool) {
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i].ID >= id })
	if i < len(sorted) && sorted[i].ID == id {
		return sorted[i], true
	}
	return Clause{}, false
}

// Parse turns a tag or ID ("@AC3", "AC3") into a registered ID.
func Parse(s string) (ID, error) {
	id := ID(strings.TrimPrefix(strings.TrimSpace(s), "@"))
	if !id.Known() {
		return "", fmt.Errorf("unknown clause %q", s)
	}
	return id, nil
}

// All lists every registered clause in registration order (by profile, then
// as the spec numbers them).
func All() []Clause {
	out := make([]Clause, len(registry))
	copy(out, registry)
	return out
}

// ForProfile lists the clauses of one profile in registration order.
func ForProfile(profile string) []Clause {
	var out []Clause
	for _, c := range registry {
		if c.Profile == profile {
			out = append(out, c)
		}
	}
	return out
}

// sorted is registry ordered by ID for Lookup; built once from the constant
// table and never written afterwards.
var sorted = func() []Clause {
	s := All()
	sort.Slice(s, func(i, j int) bool { return s[i].ID < s[j].ID })
	for i := 1; i < len(s); i++ {
		if s[i].ID == s[i-1].ID {
			panic("clause: duplicate ID " + string(s[i].ID))
		}
	}
	return s
}()
