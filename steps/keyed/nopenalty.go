package keyed

import (
	"strings"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerNoPenalty registers the step that starts a core scenario which
// needs violations (SL-5, FW-3's retrying client, TB-6).
func (s *World) registerNoPenalty(sc scenario.Stepper) {
	sc.Step(`^an instance whose refusals start no penalty$`, s.penaltyFree)
}

// penaltyFree skips a core scenario that needs violations when penalties
// are claimed and no instance without them is given (profiles.md): there a
// refusal legitimately starts a penalty, and PN-4 checks what refusals under
// it do.
func (s *World) penaltyFree() error {
	cfg := s.Env().Config
	if !cfg.Claims(profile.Penalties) || (cfg.PenaltiesURL != "" && strings.TrimRight(cfg.PenaltiesURL, "/") != strings.TrimRight(cfg.URL, "/")) {
		return nil
	}
	return scenario.Skip("this check needs refusals that start no penalty, but penalties are claimed and TARGET_URL runs them " +
		"(no TARGET_URL_PENALTIES apart from it): point TARGET_URL at an instance without penalties and " +
		"TARGET_URL_PENALTIES at one with them; PN-4 checks refusals under a penalty")
}
