package selftest

import (
	"fmt"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
)

// Expectation is what the self-test demands of one fault: its detectors, as
// the fault declares them (package fault).
type Expectation struct {
	Fault fault.Name
	fault.Detectors
}

// Expectations returns the matrix's demands, one per fault, in the order of
// faults.All(). It fails when a fault declares no detector.
func Expectations() ([]Expectation, error) {
	all := faults.All()
	out := make([]Expectation, 0, len(all))
	for _, f := range all {
		if len(f.Detectors.Scenarios) == 0 && !f.Detectors.Race {
			// A fault whose clauses no scenario checks yet runs with
			// nothing required of it; any other needs a detector.
			pending, err := acceptance.AwaitingScenarios(f.Profile, f.Align, f.Breaks...)
			if err != nil {
				return nil, fmt.Errorf("selftest: %w", err)
			}
			if !pending {
				return nil, fmt.Errorf("selftest: fault %s (%s) has no detector: give it one in its file in package fault", f.Name, f.Breaks)
			}
		}
		d := f.Detectors
		d.Scenarios = append([]string(nil), d.Scenarios...)
		out = append(out, Expectation{Fault: f.Name, Detectors: d})
	}
	return out, nil
}

// Pending reports whether nothing is demanded of the fault: it declares no
// detector, which only a fault whose clauses no scenario checks yet may
// (Expectations refuses the others).
func (e Expectation) Pending() bool { return len(e.Scenarios) == 0 && !e.Race }
