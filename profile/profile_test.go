package profile_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// TestRegistryDefaultsParse: every profile's defaults are values its
// settings accept (service.ForProfile parses them and would panic).
func TestRegistryDefaultsParse(t *testing.T) {
	for _, p := range profile.All() {
		if _, err := service.ParseKey(p.Defaults.Key); err != nil {
			t.Errorf("%s: KEY default: %v", p.Name, err)
		}
		if _, err := dialect.ParseBody(p.Defaults.LimitedBody); err != nil {
			t.Errorf("%s: LIMITED_BODY default: %v", p.Name, err)
		}
		if _, err := dialect.ParseDialect(p.Defaults.Dialect); err != nil {
			t.Errorf("%s: DIALECT default: %v", p.Name, err)
		}
		if _, err := dialect.ParseResetFormat(p.Defaults.ResetFormat); err != nil {
			t.Errorf("%s: RESET_FORMAT default: %v", p.Name, err)
		}
		if p.Defaults.Method == "" || p.Seed == "" || p.Algorithm == "" {
			t.Errorf("%s: method, seed or algorithm missing", p.Name)
		}
		for _, f := range p.Defaults.Features {
			if !slices.Contains(p.Features(), f) {
				t.Errorf("%s claims %s by default, which it may not claim", p.Name, f)
			}
		}
	}
}

// TestEveryProfileHasADesignAndCoreClauses: the design builds from valid
// numbers and refuses invalid ones; every profile has core clauses.
func TestEveryProfileHasADesignAndCoreClauses(t *testing.T) {
	good := profile.Params{Limit: 5, Window: 3 * time.Second, Burst: 5, Rate: 1, Align: profile.AlignEpoch}
	for _, p := range profile.All() {
		if m, err := p.Design(good); err != nil || m == nil {
			t.Errorf("%s: design of %+v: %v", p.Name, good, err)
		}
		if _, err := p.Design(profile.Params{}); err == nil {
			t.Errorf("%s: design of zero params: no error", p.Name)
		}
		if len(p.Core()) == 0 {
			t.Errorf("%s has no core clause", p.Name)
		}
		for _, id := range p.Core() {
			if profile.FeatureOf(id) != "" {
				t.Errorf("%s: core clause %s is a feature's", p.Name, id)
			}
		}
	}
}

// TestEveryClauseHasAHome: each clause of the clause registry belongs to a
// registered profile or to "any" (a feature of every profile), and every
// "any" clause is some feature's.
func TestEveryClauseHasAHome(t *testing.T) {
	for _, c := range clause.All() {
		if c.Profile == "any" {
			if profile.FeatureOf(c.ID) == "" {
				t.Errorf("%s is of any profile but of no feature", c.ID)
			}
			continue
		}
		if _, ok := profile.Lookup(profile.Name(c.Profile)); !ok {
			t.Errorf("%s names profile %q, which the registry does not hold", c.ID, c.Profile)
		}
	}
	for _, f := range profile.Features() {
		for _, id := range f.Clauses() {
			if !id.Known() {
				t.Errorf("feature %s names unknown clause %s", f, id)
			}
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]profile.Name{"": profile.PRD, " sliding-log ": profile.SlidingLog, "token-bucket": profile.TokenBucket} {
		if got, err := profile.Parse(in, false); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got, err := profile.Parse("all", true); err != nil || got != profile.Every {
		t.Errorf("Parse(all, withAll) = %q, %v", got, err)
	}
	for _, in := range []string{"all", "sliding_log", "PRD"} {
		if _, err := profile.Parse(in, false); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
	if _, err := profile.Parse("nope", true); err == nil || err.Error() != `"nope" is not one of prd, sliding-log, fixed-window, token-bucket, all` {
		t.Errorf("Parse(nope) error = %v", err)
	}
}

func TestParseAlign(t *testing.T) {
	if a, err := profile.ParseAlign(""); err != nil || a != profile.AlignEpoch {
		t.Errorf("ParseAlign(\"\") = %q, %v", a, err)
	}
	if _, err := profile.ParseAlign("grid-ish"); err == nil {
		t.Error("ParseAlign accepted grid-ish")
	}
}
