package prd

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
	"github.com/stretchr/testify/mock"
)

// scripted is the exchange a scenario.Sender mock answers with: the request as sent,
// the given status and rate-limit headers.
func scripted(r httpclient.Request, status, limit, remaining int, reset time.Time) *httpclient.Exchange {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	return &httpclient.Exchange{Method: http.MethodPost, URL: "http://fake/v1/ride_summary", Body: r.Body,
		Status: status, RespHeader: h, RespBody: []byte(`{"status":"accepted"}`)}
}

// An off-by-one first response (Remaining = limit, the value before the
// spend) scripted through the scenario.Sender mock must be reported as an AC1
// violation naming the expectation and carrying the exchange as evidence.
func TestFirstRequestOffByOneIsAViolation(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	sender := newMockSender(t)
	s.Bucket.ID = bodytmpl.NewDeviceBucket()
	sender.EXPECT().Do(mock.Anything, mock.MatchedBy(func(r httpclient.Request) bool {
		// The step sends the scenario's bucket with a fresh Idempotency-Key.
		return r.IdempotencyKey != "" && strings.Contains(string(r.Body), s.Bucket.ID)
	})).RunAndReturn(func(_ context.Context, r httpclient.Request) *httpclient.Exchange {
		return scripted(r, http.StatusOK, 10, 10, time.Now().Add(time.Hour))
	}).Once()
	if _, err := s.One(sender, bodytmpl.Bucket(s.Bucket.ID)); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := s.statusIs(http.StatusOK); err != nil {
		t.Fatalf("status: %v", err)
	}
	err := s.remainingIs(s.Limit()-1, "limit - 1")
	var v *scenario.Violation
	if !errors.As(err, &v) {
		t.Fatalf("remainingIs = %v, want a *scenario.Violation", err)
	}
	if !strings.Contains(v.Expected, "X-RateLimit-Remaining 9") || len(v.Evidence) != 1 || v.Evidence[0].Status != http.StatusOK {
		t.Fatalf("violation %+v does not name the expectation or lacks the exchange", v)
	}
}

// A transport error from the scenario.Sender mock is an FR-7 violation ("the target
// answers every request"), never a pass or a panic.
func TestTransportErrorIsAViolation(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	sender := newMockSender(t)
	reset := errors.New("connection reset by peer")
	sender.EXPECT().Do(mock.Anything, mock.Anything).Return(&httpclient.Exchange{Err: reset}).Once()
	_, err := s.One(sender, bodytmpl.Bucket(bodytmpl.NewDeviceBucket()))
	var v *scenario.Violation
	if !errors.As(err, &v) || !slices.Equal(v.Clause, clause.Of(clause.FR7)) || !strings.Contains(v.Actual, "connection reset") {
		t.Fatalf("err = %v, want an FR-7 violation with the transport error", err)
	}
}
