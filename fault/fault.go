package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// Name names a fault. Keep names stable: self-test reports and
// reproductions use them. The empty Name is the correct reference.
type Name string

// None is the correct reference.
const None Name = ""

// String is the fault's name, "none" for the reference.
func (n Name) String() string {
	if n == None {
		return "none"
	}
	return string(n)
}

// Fault is one deliberate defect.
type Fault struct {
	Name        Name
	Breaks      clause.Refs // the clauses it breaks, the first the main one
	Description string
	// Seed is where the defect stands in a seed of spec/ (document, function
	// and line), "" for a defect of no seed.
	Seed      string
	Detectors Detectors
	// Profile is the design the fault belongs to: the self-test runs it on
	// the reference serving that profile ("" the PRD).
	Profile profile.Name
	// Align is the fixed-window alignment the self-test serves and claims
	// for the fault ("" epoch).
	Align profile.Align
	// NoDelay: the self-test serves and claims the leaky bucket's
	// LB_MODE=nodelay for the fault.
	NoDelay bool
	// Wrap returns the replacements of a server configured by cfg.
	Wrap func(cfg fakeserver.Config) fakeserver.Wrap
}

// Detectors is what the self-test demands of a fault.
type Detectors struct {
	// Scenarios are acceptance scenario ids that must fail against the
	// fault (others may fail too). Empty: the suite is still run and its
	// verdict shown, but nothing is required of it.
	Scenarios []string
	// Race: the race hunter must find a violation.
	Race bool
	// Replicas is the number of in-process servers on one database file
	// the race hunter targets (process-cache needs more than one); more
	// than one also runs the acceptance suite against several instances
	// on one store, so that the multi-instance scenarios (MI-1) run.
	Replicas int
}
