package profile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/model"
)

// Name is a profile's name, as PROFILE and the @profile: tag spell it.
type Name string

// Align is a fixed window's alignment (WINDOW_ALIGN).
type Align string

// The alignments of a fixed window (dialects.md, "Windows").
const (
	AlignEpoch        Align = "epoch"
	AlignFirstRequest Align = "first-request"
	// AlignKeyGrid is a grid of W anchored at the key's first-ever request.
	AlignKeyGrid Align = "key-grid"
	// AlignGrid is one grid of W for all keys, anchored at an instant (the
	// limiter's start).
	AlignGrid Align = "grid"
)

// Meaning says where a's windows lie (dialects.md, "Windows").
func (a Align) Meaning() string {
	switch a {
	case AlignEpoch:
		return "[kW, (k+1)W) in unix time: every key's windows on the epoch's grid (spec/003)"
	case AlignFirstRequest:
		return "opened by the key's first request after its previous window ended, lasting W (spec/004, the PRD)"
	case AlignKeyGrid:
		return "a grid of W anchored at the key's first-ever request: after an idle gap the next window still starts on that grid"
	case AlignGrid:
		return "one grid of W for all keys, anchored at an instant learnt from the first Reset (windows that start when the process starts)"
	}
	return ""
}

// AlignList is as, written for a message: "epoch, key-grid or grid".
func AlignList(as []Align) string {
	s := joined(as)
	if i := strings.LastIndex(s, ", "); i >= 0 {
		s = s[:i] + " or " + s[i+2:]
	}
	return s
}

// Aligns lists the alignments WINDOW_ALIGN accepts.
func Aligns() []Align { return []Align{AlignEpoch, AlignFirstRequest, AlignKeyGrid, AlignGrid} }

// OnGrid reports whether windows of a sit on a grid of W (epoch, key-grid,
// grid): any span of W then holds at most 2N, against 2N − 1 for windows
// opened by a first request (dialects.md).
func (a Align) OnGrid() bool { return a != AlignFirstRequest }

// ParseAlign reads WINDOW_ALIGN; "" is the default, epoch.
func ParseAlign(s string) (Align, error) {
	a := Align(strings.TrimSpace(s))
	if a == "" {
		return AlignEpoch, nil
	}
	if !slices.Contains(Aligns(), a) {
		return "", fmt.Errorf("%q is not one of %s", s, joined(Aligns()))
	}
	return a, nil
}

// Params are the numbers a design is built from: N and W, B and R, a
// fixed window's alignment (and the grid's anchor, for AlignGrid), a leaky
// bucket's RL_DELAY and LB_MODE, and whether refused requests count
// (counts-refused). A profile reads those it needs.
type Params struct {
	Limit  int
	Window time.Duration
	Burst  int
	Rate   float64
	Align  Align
	Anchor time.Time // AlignGrid: an instant on the grid (the limiter's start)
	// Delay is RL_DELAY: the queued requests a leaky bucket answers at once.
	Delay int
	// NoDelay is LB_MODE=nodelay.
	NoDelay bool
	// CountsRefused: the sliding-window counter counts refused requests.
	CountsRefused bool
}

// Defaults are the settings a profile's target takes when they are not
// given (profiles.md's invocation table), as their variables spell them.
type Defaults struct {
	Key         string    // KEY: body:<field>, header:<Name> or ip
	Method      string    // TARGET_METHOD
	Dialect     string    // DIALECT
	ResetFormat string    // RESET_FORMAT ("" auto)
	LimitedBody string    // LIMITED_BODY
	Align       Align     // WINDOW_ALIGN, for the profiles that take it
	Features    []Feature // FEATURES claimed when none are given
}

// Profile is one design rlspec verifies.
type Profile struct {
	Name      Name
	Seed      string // the seeds of spec/ it is read from
	Algorithm string // one line: what the design does
	// Explain tells an implementer, in a paragraph, what the design is and
	// what its scenarios check (docs/profiles.md's section of it).
	Explain  string
	Defaults Defaults
	// Takes lists the settings beyond the target contract's the profile
	// accepts (KEY, WINDOW_ALIGN, RL_BURST, …); any other profile setting
	// given is a configuration mistake.
	Takes []string
	// Extra lists the extended features only this profile may claim.
	Extra []Feature
	// Design builds the profile's model from the settings' numbers.
	Design func(Params) (model.Model, error)
	// Refill is how the design gives quota back, and so what sizes it.
	Refill Refill
	// Quota is the one quota a live target of the design enforces: N, a
	// bucket's B, a queue's places and the one in service, B + 1.
	Quota func(Params) int
	// AtQuota is ps sized so that Quota is q (the race hunter's quotas).
	AtQuota func(ps Params, q int) Params
	// Quick is N and W of a quick run; zero for the PRD, whose suite
	// seeds its buckets through TARGET_DB.
	Quick Size
	// Aligns lists the WINDOW_ALIGNs the design takes, when it takes the
	// setting; Unread those its scenarios not tagged @align: do not read
	// yet.
	Aligns, Unread []Align
	// Queues: excess waits in a queue, its answers held back, rather than
	// being refused (request shaping).
	Queues bool
	// RemainingSlack is how far a Remaining header may lie from the
	// model's: 1 where the clause allows an estimate rounded either way
	// (SWC-6's N − ⌈e⌉ ±1), 0 where Remaining counts whole requests.
	RemainingSlack int
	// Bounds checks one key's answered requests against the design's
	// bounds: what it allowed beyond them (over) and, where it gives
	// quota back by the window, what it refused within them (under).
	Bounds func(Answered) (over, under []bound.Violation)
	// label names the design served with ps, when its name alone does not
	// say how (Label).
	label func(ps Params) string
}

// String is the name.
func (n Name) String() string { return string(n) }

// Core is the profile's core clauses: its own clauses of the clause
// registry that no extended feature checks.
func (p Profile) Core() []clause.ID {
	var ids []clause.ID
	for _, c := range clause.All() {
		if c.Profile == string(p.Name) && FeatureOf(c.ID) == "" {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Features lists the extended features p may claim: those of every
// profile, then its own.
func (p Profile) Features() []Feature {
	return append(slices.Clone(common), p.Extra...)
}

// TakesSetting reports whether p accepts the setting named env.
func (p Profile) TakesSetting(env string) bool { return slices.Contains(p.Takes, env) }

// Lookup is the registered profile of that name; "" is the PRD, the
// default.
func Lookup(n Name) (Profile, bool) {
	if n == "" {
		n = PRD
	}
	for _, p := range registry {
		if p.Name == n {
			return p, true
		}
	}
	return Profile{}, false
}

// Of is the registered profile of that name, or the PRD's for an unknown
// one (names are validated at the CLI edge with Parse).
func Of(n Name) Profile {
	if p, ok := Lookup(n); ok {
		return p
	}
	return registry[0]
}

// All lists the profiles in the order PROFILE=all runs them.
func All() []Profile { return slices.Clone(registry) }

// Names lists the profiles' names in registry order.
func Names() []Name {
	ns := make([]Name, len(registry))
	for i, p := range registry {
		ns[i] = p.Name
	}
	return ns
}

// Parse reads a profile's name; "" is the PRD. withAll also accepts
// "all" (PROFILE=all: every profile).
func Parse(s string, withAll bool) (Name, error) {
	n := Name(strings.TrimSpace(s))
	if n == "" {
		return PRD, nil
	}
	if _, ok := Lookup(n); ok || (withAll && n == Every) {
		return n, nil
	}
	choices := joined(Names())
	if withAll {
		choices += ", " + string(Every)
	}
	return "", fmt.Errorf("%q is not one of %s", s, choices)
}

// Choices is the list of names for help texts: "prd, sliding-log, …" and,
// withAll, "all".
func Choices(withAll bool) string {
	s := joined(Names())
	if withAll {
		s += " or " + string(Every)
	}
	return s
}

// IsPRD reports whether n is the PRD (the default profile).
func IsPRD(n Name) bool { return n == "" || n == PRD }

func joined[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// TakenBy names the profiles that take setting env, for help texts:
// "token-bucket" for RL_BURST.
func TakenBy(env string) string {
	var ns []Name
	for _, p := range registry {
		if p.TakesSetting(env) {
			ns = append(ns, p.Name)
		}
	}
	return joined(ns)
}
