package profile

import (
	"slices"

	"github.com/rlspec/rlspec/clause"
)

// Feature is an extended feature an implementation may claim (FEATURES).
type Feature string

// The extended features of profiles.md.
const (
	Penalties     Feature = "penalties"
	Tiers         Feature = "tiers"
	Bypass        Feature = "bypass"
	FailOpen      Feature = "fail-open"
	FailClosed    Feature = "fail-closed"
	MultiInstance Feature = "multi-instance"
	Persistence   Feature = "persistence"
	IETFHeaders   Feature = "ietf-headers"
	AnonymousOpen Feature = "anonymous-open" // fixed-window only
	// CountsRefused (sliding-window-counter only): refused requests are
	// counted too, as some proxies do. It has no clause of its own: it
	// changes what SWC-2 and SWC-3 expect.
	CountsRefused Feature = "counts-refused"
)

// common are the features any profile may claim.
var common = []Feature{Penalties, Tiers, Bypass, FailOpen, FailClosed, MultiInstance, Persistence, IETFHeaders}

// featureClauses is the one table of the clauses whose scenarios check each
// extended feature (profiles.md): a scenario of one of them is the
// feature's, not its profile's core. anonymous-open has none of its own: it
// changes what FW-7, a core clause, expects.
var featureClauses = []struct {
	feature Feature
	clauses []clause.ID
}{
	{Penalties, []clause.ID{clause.PN1, clause.PN2, clause.PN3, clause.PN4, clause.PN5}},
	{Tiers, []clause.ID{clause.SL9}},
	{Bypass, []clause.ID{clause.SL10}},
	{FailOpen, []clause.ID{clause.FAIL2}},
	{FailClosed, []clause.ID{clause.FAIL1}},
	{MultiInstance, []clause.ID{clause.MI1}},
	{Persistence, []clause.ID{clause.PS1}},
	{IETFHeaders, []clause.ID{clause.IETF1}},
}

// Clauses lists the clauses whose scenarios check f.
func (f Feature) Clauses() []clause.ID {
	for _, fc := range featureClauses {
		if fc.feature == f {
			return slices.Clone(fc.clauses)
		}
	}
	return nil
}

// Checks reports whether p's own clauses check feature f (tiers are
// sliding-log's SL-9): a feature of every profile whose clauses are
// another's has no scenario under p.
func (p Profile) Checks(f Feature) bool {
	for _, id := range f.Clauses() {
		if c, ok := clause.Lookup(id); ok && c.Profile == string(p.Name) {
			return true
		}
	}
	return false
}

// FeatureOf is the extended feature clause id checks, "" for a core
// clause.
func FeatureOf(id clause.ID) Feature {
	for _, fc := range featureClauses {
		if slices.Contains(fc.clauses, id) {
			return fc.feature
		}
	}
	return ""
}

// FeatureOfAny is the extended feature the first of ids that belongs to one
// checks, "" when all are core clauses.
func FeatureOfAny(ids []clause.ID) Feature {
	for _, id := range ids {
		if f := FeatureOf(id); f != "" {
			return f
		}
	}
	return ""
}

// Features lists every extended feature of every profile, common first.
func Features() []Feature {
	fs := slices.Clone(common)
	for _, p := range registry {
		for _, f := range p.Extra {
			if !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
	}
	return fs
}
