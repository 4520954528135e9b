package profile_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/model/modeltest"
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
	if _, err := profile.Parse("nope", true); err == nil || err.Error() != `"nope" is not one of prd, sliding-log, fixed-window, token-bucket, sliding-window-counter, leaky-bucket, all` {
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

// TestFixedWindowAligns: each alignment builds its own design — a first
// request 25 s after an idle key's window opened at 1003 ends where that
// alignment says.
func TestFixedWindowAligns(t *testing.T) {
	fw, _ := profile.Lookup(profile.FixedWindow)
	opened := model.State{Found: true, Remaining: 1, Reset: 1013}
	for a, want := range map[profile.Align]int64{profile.AlignEpoch: 1030, profile.AlignFirstRequest: 1038,
		profile.AlignKeyGrid: 1033, profile.AlignGrid: 1034} {
		m, err := fw.Design(profile.Params{Limit: 2, Window: 10 * time.Second, Align: a, Anchor: time.Unix(4, 0)})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if _, d := m.Step(opened, model.Request{Cost: 1}, time.Unix(1028, 0)); d.Reset != want {
			t.Errorf("%s: the window ends %d, want %d", a, d.Reset, want)
		}
		if a, err := profile.ParseAlign(string(a)); err != nil || a.OnGrid() == (a == profile.AlignFirstRequest) {
			t.Errorf("ParseAlign(%s) = %v, on grid %v", a, err, a.OnGrid())
		}
	}
}

// TestNewDesigns: the leaky bucket reads RL_DELAY and LB_MODE, the window
// counter counts-refused.
func TestNewDesigns(t *testing.T) {
	lb, _ := profile.Lookup(profile.LeakyBucket)
	m, err := lb.Design(profile.Params{Burst: 3, Rate: 2, Delay: 1, NoDelay: true})
	if err != nil || m != (model.LeakyBucket{Burst: 3, Rate: 2, Delay: 1, NoDelay: true}) {
		t.Errorf("leaky-bucket design: %+v, %v", m, err)
	}
	if _, err := lb.Design(profile.Params{Burst: 3, Rate: 2, Delay: 4}); err == nil {
		t.Error("RL_DELAY above RL_BURST accepted")
	}
	swc, _ := profile.Lookup(profile.SlidingWindowCounter)
	if m, err := swc.Design(profile.Params{Limit: 3, Window: time.Second, CountsRefused: true}); err != nil || !m.(model.WindowCounter).CountsRefused {
		t.Errorf("sliding-window-counter with counts-refused: %+v, %v", m, err)
	}
	if !slices.Contains(swc.Features(), profile.CountsRefused) || slices.Contains(lb.Features(), profile.CountsRefused) {
		t.Error("counts-refused is the sliding-window counter's own feature")
	}
}

// TestEveryProfileIsSized: each entry says how it gives quota back, its
// quota round-trips through AtQuota, a profile other than the PRD has a
// quick size, and the alignments it takes include its default.
func TestEveryProfileIsSized(t *testing.T) {
	base := profile.Params{Limit: 7, Window: 3 * time.Second, Burst: 7, Rate: 1}
	for _, p := range profile.All() {
		if p.Refill == 0 || p.Quota == nil || p.AtQuota == nil || p.Bounds == nil {
			t.Errorf("%s: Refill, Quota, AtQuota or Bounds missing", p.Name)
			continue
		}
		for _, q := range []int{1, 2, 4} {
			if got := p.Quota(p.AtQuota(base, q)); got != q {
				t.Errorf("%s: the quota of AtQuota(%d) is %d", p.Name, q, got)
			}
		}
		if (p.Quick == profile.Size{}) != profile.IsPRD(p.Name) {
			t.Errorf("%s: quick size %+v", p.Name, p.Quick)
		}
		if takes := p.TakesSetting(profile.SettingWindowAlign); takes != (len(p.Aligns) > 0) || (takes && !p.TakesAlign(p.Defaults.Align)) {
			t.Errorf("%s: takes WINDOW_ALIGN %v, aligns %v, default %q", p.Name, takes, p.Aligns, p.Defaults.Align)
		}
		if p.SizedByRate() != (p.TakesSetting(profile.SettingBurst) && p.TakesSetting(profile.SettingRate)) {
			t.Errorf("%s: sized by rate %v, but takes %v", p.Name, p.SizedByRate(), p.Takes)
		}
	}
}

// TestBoundsOfEachDesign: a burst of Quota+2 allowed at once on a fresh
// key (the rates' bound allows one more, for the clock) breaks every
// design's bounds but the PRD's (checked otherwise).
func TestBoundsOfEachDesign(t *testing.T) {
	ps := profile.Params{Limit: 3, Window: 10 * time.Second, Burst: 3, Rate: 0.1, Align: profile.AlignEpoch}
	for _, p := range profile.All() {
		m, err := p.Design(ps)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		at := time.Unix(1000, int64(500*time.Millisecond)).UnixNano()
		var es []bound.Event
		for i := range p.Quota(ps) + 2 {
			es = append(es, bound.Event{ID: i, Key: "k", Send: at, Recv: at + int64(time.Millisecond), Allowed: true})
		}
		a := profile.Answered{Events: es, Complete: true, Limit: ps.Limit, Window: ps.Window, Align: ps.Align, Tolerance: 0, Model: m}
		over, under := p.Bounds(a)
		if got := len(over) > 0; got == profile.IsPRD(p.Name) || len(under) > 0 {
			t.Errorf("%s: %d allowed at once: over %v, under %v", p.Name, len(es), over, under)
		}
	}
}

// TestChecks: tiers and bypass are checked by sliding-log's clauses only.
func TestChecks(t *testing.T) {
	for _, p := range profile.All() {
		for _, f := range []profile.Feature{profile.Tiers, profile.Bypass} {
			if got := p.Checks(f); got != (p.Name == profile.SlidingLog) {
				t.Errorf("%s checks %s: %v", p.Name, f, got)
			}
		}
	}
}

// TestEveryDesignConforms runs model/modeltest's suite against each
// registered design, sized by its entry to a quota of n per window w
// (a rate design drains n per window): a new design's entry is checked
// as it is registered.
func TestEveryDesignConforms(t *testing.T) {
	for _, p := range profile.All() {
		t.Run(string(p.Name), func(t *testing.T) {
			modeltest.Run(t, modeltest.Subject{New: func(n int, w time.Duration) model.Model {
				ps := p.AtQuota(profile.Params{Window: w, Rate: float64(n) / w.Seconds(), Align: p.Defaults.Align}, n)
				m, err := p.Design(ps)
				if err != nil {
					t.Fatalf("design of %+v: %v", ps, err)
				}
				return m
			}})
		})
	}
}

// TestDescriptions: an entry prints the settings that size it, and labels
// how it is served.
func TestDescriptions(t *testing.T) {
	ps := profile.Params{Limit: 5, Window: 3 * time.Second, Burst: 4, Rate: 0.5, Align: profile.AlignKeyGrid, NoDelay: true}
	for name, want := range map[profile.Name][2]string{
		profile.SlidingLog:  {"RL_LIMIT=5, RL_WINDOW=3s", "sliding-log"},
		profile.FixedWindow: {"RL_LIMIT=5, RL_WINDOW=3s", "fixed-window key-grid"},
		profile.TokenBucket: {"RL_BURST=4, RL_RATE=0.5", "token-bucket"},
		profile.LeakyBucket: {"RL_BURST=4, RL_RATE=0.5", "leaky-bucket nodelay"},
	} {
		p := profile.Of(name)
		if got := [2]string{p.Sizing(ps), p.Label(ps)}; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got := profile.Of(profile.FixedWindow).Label(profile.Params{}); got != "fixed-window epoch" {
		t.Errorf("fixed-window of the default alignment: %q", got)
	}
}

// TestEveryDesignExplained: docs/profiles.md's section of each design is
// its entry's paragraph, and each alignment says where its windows lie.
func TestEveryDesignExplained(t *testing.T) {
	for _, p := range profile.All() {
		if len(p.Explain) < 100 {
			t.Errorf("%s: Explain %q is not a paragraph", p.Name, p.Explain)
		}
	}
	for _, a := range profile.Aligns() {
		if a.Meaning() == "" {
			t.Errorf("WINDOW_ALIGN=%s has no meaning", a)
		}
	}
}

// TestAlignList: the alignments a message names, joined with a final "or".
func TestAlignList(t *testing.T) {
	for want, as := range map[string][]profile.Align{
		"epoch":                                  {profile.AlignEpoch},
		"epoch or grid":                          {profile.AlignEpoch, profile.AlignGrid},
		"epoch, first-request, key-grid or grid": profile.Aligns(),
	} {
		if got := profile.AlignList(as); got != want {
			t.Errorf("AlignList(%v) = %q, want %q", as, got, want)
		}
	}
}
