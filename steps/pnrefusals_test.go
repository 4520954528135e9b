package steps

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/service"
)

// PN-4-03 decides only where a count raised by the refusals would start a
// tier at least 3 s longer: two tiers never tell, a third does.
func TestRefusalsDecidable(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		tiers   string
		refused int
		skip    bool
	}{
		{"2:5s,3:9s", 16, true},
		{"2:5s,3:8s,4:11s", 16, false},
		{"2:5s,3:8s,4:11s", 0, true}, // no refusal under the penalty: nothing to decide
		{"2:5s,3:8s,20:11s", 10, true},
	} {
		s := newTestScenario(t, newFakeLimiter(5))
		tiers, err := model.ParsePenaltyTiers(c.tiers)
		if err != nil {
			t.Fatal(err)
		}
		s.env.Config.Penalties = tiers
		body := []byte(`{"penalty_active":true,"penalty_until":1}`)
		first := &service.Exchange{Status: 429, Sent: now, Received: now.Add(time.Millisecond), RespBody: body}
		s.record(first)
		s.pen = penaltyState{violations: 2, penalties: []seenPenalty{{ex: first, violation: 2, until: 1}}}
		for i := range c.refused {
			at := now.Add(time.Duration(i+1) * 250 * time.Millisecond)
			s.record(&service.Exchange{Status: 429, Sent: at, Received: at.Add(time.Millisecond), RespBody: body})
		}
		err = s.refusalsDecidable()
		switch {
		case c.skip != errors.Is(err, godog.ErrSkip):
			t.Errorf("%s, %d refused: %v, want skip %v", c.tiers, c.refused, err, c.skip)
		case c.skip && c.refused > 0 && !strings.Contains(err.Error(), c.tiers):
			t.Errorf("skip reason %q does not name the tiers", err)
		}
	}
}
