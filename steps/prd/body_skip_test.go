package prd

import (
	"errors"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/steps/steptest"
)

// A template that renders the same body every time skips AC6-03 with a
// reason that suggests {{uuid}} and not {{now}}: two requests within one
// second render the same {{now}}.
func TestConstantBodySkipsWithUUIDAdvice(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	body, err := bodytmpl.New(`{"route_id":"335E","submitted_at":"{{now}}"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Env().Body = body
	if err := s.FreshBucket(); err != nil {
		t.Fatal(err)
	}
	if err := s.sendRide(); err != nil {
		t.Fatal(err)
	}
	err = s.sameKeyOtherBody()
	if !errors.Is(err, godog.ErrSkip) {
		t.Fatalf("err = %v, want a skip", err)
	}
	if !strings.Contains(err.Error(), "{{uuid}}") || strings.Contains(err.Error(), "{{now}}") {
		t.Errorf("skip reason %q: want {{uuid}}, not {{now}}", err.Error())
	}
}
