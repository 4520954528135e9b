package steps

import (
	"fmt"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/service"
)

// registerPersistence registers the steps of PS-1: quota spent before the
// target restarts is still spent after it. The scenario runs alone
// (takesStore), since every instance goes away for a moment.
func (s *scenario) registerPersistence(sc stepper) {
	sc.Step(`^the target claims persistence and can be restarted$`, s.claimsPersistence)
	sc.Step(`^the target restarts$`, s.targetRestarts)
	sc.Step(`^within (\d+) seconds of the restart a ride to the bucket gets 200 with Remaining at most the limit minus (\d+)$`, func(secs, n int) error {
		return s.backWithSpent(secs, n, clause.Of(clause.PS1), "the restart")
	})
}

func (s *scenario) claimsPersistence() error {
	if !s.env.Config.Claims(service.FeaturePersistence) {
		return skip("%s FEATURES does not include %s", NotClaimed, service.FeaturePersistence)
	}
	if s.env.Restarter == nil {
		return skip("no way to restart the target: PS-1 needs TARGET_IMAGE (rlspec restarts its containers on their volume) or the embedded reference")
	}
	return nil
}

func (s *scenario) targetRestarts() error {
	if err := s.env.Restarter.Restart(s.ctx); err != nil {
		return fmt.Errorf("restart the target: %w", err)
	}
	return nil
}
