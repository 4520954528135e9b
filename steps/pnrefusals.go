package steps

import (
	"net/http"
	"time"

	"github.com/rlspec/rlspec/model"
)

// registerPNRefusals registers PN-4's step on the count: whether the
// refusals a key got under its penalty would, were they counted as
// violations, give its next violation another tier.
func (s *scenario) registerPNRefusals(sc stepper) {
	sc.Step(`^the refusals under the penalty would start another tier's penalty were they counted$`, s.refusalsDecidable)
}

// refusalsDecidable skips the scenario when RL_PENALTIES cannot tell a
// count raised by the refusals under the current penalty from the count of
// the key's violations: the next violation's tier must differ by at least
// 3 s (as escalation, profiles.md) between the two counts.
func (s *scenario) refusalsDecidable() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	k := 0
	for _, ex := range s.exchanges() {
		if active, _ := penaltyOf(ex); active && ex.Status == http.StatusTooManyRequests && ex.Sent.After(p.ex.Received) {
			k++
		}
	}
	if k == 0 {
		return skip("no request could be sent under the penalty (penalty_until %d came less than 1.25 s after the violation)", p.until)
	}
	next, counted := s.tiers().Duration(p.violation+1), s.tiers().Duration(p.violation+1+k)
	if d := counted - next; d < 3*time.Second && d > -3*time.Second {
		return skip("RL_PENALTIES=%s cannot tell whether the %d refusals under the penalty counted: violation %d and violation %d start %s and %s, less than 3 s apart (add a tier beyond count %d)",
			model.FormatPenaltyTiers(s.env.Config.Penalties), k, p.violation+1, p.violation+1+k, next, counted, p.violation+1)
	}
	return nil
}
