package leakybucket

import (
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerRefusal registers LB-5's check: the refusals of a full queue.
func (s *state) registerRefusal(sc scenario.Stepper) {
	sc.Step(`^each refusal has LIMITED_STATUS, a body matching LIMITED_BODY and, where sent, a readable Retry-After$`, s.refusals)
}

// refusals is LB-5 on the last batch: every answer not allowed is a
// refusal as LIMITED_STATUS and LIMITED_BODY say, with a readable
// Retry-After where one is sent. A batch with no answer other than 2xx
// has nothing to check (LB-2 reports a queue that refused nothing).
func (s *state) refusals() error {
	n := 0
	for _, ex := range s.Batch.Exchanges {
		if ex.Status/100 == 2 {
			continue
		}
		n++
		if err := s.RefusalWhereSent(ex, 0); err != nil {
			return err
		}
	}
	if n == 0 {
		return scenario.Skip("no request of the burst was refused, so there is no refusal to check (LB-2 reports the queue's bound)")
	}
	return nil
}
