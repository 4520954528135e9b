package prd

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// senderClient is a Client whose requests a Sender (a mockery mock)
// answers.
type senderClient struct {
	scenario.Sender
	addr netip.Addr
}

func (c senderClient) Addr() netip.Addr { return c.addr }
func (senderClient) Close()             {}

// newServerErrorScenario is a scenario whose clients (mockery mocks) get
// HTTP 500 for every request, as from a target that fails to create a
// bucket's row.
func newServerErrorScenario(t *testing.T) *World {
	t.Helper()
	s := newTestScenario(t, steptest.NewLimiter(10))
	s.Env().NewClient = func(string) scenario.Client {
		c := newMockSender(t)
		c.EXPECT().Do(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, r httpclient.Request) *httpclient.Exchange {
			return &httpclient.Exchange{Method: http.MethodPost, Body: r.Body, Status: http.StatusInternalServerError,
				RespHeader: http.Header{}, RespBody: []byte(`{"error":"internal"}`)}
		}).Maybe()
		return senderClient{Sender: c, addr: netip.MustParseAddr("127.0.0.9")}
	}
	return s
}

// result runs the scenario's end with the given id and clause tags.
func (s *World) resultAs(t *testing.T, id string, tags ...clause.ID) scenario.ScenarioResult {
	t.Helper()
	names := []string{"@id:" + id}
	for _, c := range tags {
		names = append(names, c.Tag())
	}
	return s.Result(steptest.Scenario(id+" [x] y", names...))
}

// A Given step whose first request gets 500 fails as a precondition, not
// as a violation of AC1 charged to an AC3 scenario, with the root cause
// every such scenario shares.
func TestFirstRequest500InAGivenIsAPrecondition(t *testing.T) {
	s := newServerErrorScenario(t)
	s.Fail(s.freshBucketWithLeft(0))
	var v *scenario.Violation
	if !errors.As(s.Err(), &v) || !v.Precondition || !strings.HasPrefix(s.Err().Error(), "precondition: first request on a fresh bucket") {
		t.Fatalf("err = %v, want a precondition violation", s.Err())
	}
	r := s.resultAs(t, "AC3-01", clause.AC3, clause.FR3)
	if r.Status != scenario.Failed || !strings.HasPrefix(r.Reason, "precondition: ") || strings.HasPrefix(r.Reason, "AC1") ||
		r.Cause != "the first request of a fresh bucket got HTTP 500" {
		t.Fatalf("result %s %q, cause %q", r.Status, r.Reason, r.Cause)
	}
}

// A Then step that fails because the scenario's first request (keyed by
// address) got 500 is a precondition of AC5 with the same root cause; in
// the scenario that checks AC1 itself the same failure is charged to AC1.
func TestFirstRequest500InAThenIsAPreconditionExceptForAC1(t *testing.T) {
	for _, tc := range []struct {
		tag          clause.ID
		precondition bool
	}{{clause.AC5, true}, {clause.AC1, false}} {
		s := newServerErrorScenario(t)
		if err := s.sendNoBucket(); err != nil {
			t.Fatal(err)
		}
		s.Fail(s.statusIs(http.StatusOK))
		r := s.resultAs(t, "RL-X", tc.tag)
		if r.Violation == nil || r.Violation.Precondition != tc.precondition ||
			strings.HasPrefix(r.Reason, "precondition: ") != tc.precondition ||
			r.Cause != "the first request of a fresh bucket got HTTP 500" {
			t.Errorf("@%s: precondition %v, reason %q, cause %q", tc.tag, r.Violation != nil && r.Violation.Precondition, r.Reason, r.Cause)
		}
	}
}

// A failure after a sound first request keeps its clause and names the
// check as its cause.
func TestCauseOfAnOrdinaryViolationIsItsCheck(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	if err := s.freshBucketWithLeft(0); err != nil {
		t.Fatal(err)
	}
	if err := s.sendRide(); err != nil {
		t.Fatal(err)
	}
	s.Fail(s.statusIs(http.StatusOK))
	r := s.resultAs(t, "RL-X", clause.AC3)
	if r.Violation == nil || r.Violation.Precondition || r.Cause != "AC1: response status" || !strings.HasPrefix(r.Reason, "AC1: response status") {
		t.Fatalf("reason %q cause %q", r.Reason, r.Cause)
	}
}
