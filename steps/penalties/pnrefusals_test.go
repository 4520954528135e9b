package penalties

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// lateClient answers every request 200 (the penalty already over) and
// comes back late: received at the given instant.
type lateClient struct{ received time.Time }

func (c lateClient) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	return &httpclient.Exchange{Method: r.Method, Status: http.StatusOK, Sent: c.received.Add(-10 * time.Millisecond), Received: c.received, RespHeader: http.Header{}}
}
func (lateClient) Addr() netip.Addr { return netip.MustParseAddr("127.0.0.9") }
func (lateClient) Close()           {}

// TestRefusalCameBackLateIsNoVerdict: a request under a penalty that came
// back only after penalty_until − 1 s (a starved machine sent it late) is
// not judged — a 200 there may be the penalty's legitimate end — and the
// verdict rests on a time assumption that broke, so the scenario runs again
// (issue 27: PN-1-02 failed the correct reference so at load 18).
func TestRefusalCameBackLateIsNoVerdict(t *testing.T) {
	now := time.Now()
	stop := now.Add(-time.Second) // the loop's end is already past
	s := testWorld(context.Background(), &scenario.Env{Config: service.DefaultConfig(), Now: time.Now, MaxWait: time.Minute})
	s.Key.Client, s.Key.Value = lateClient{received: now}, "k"
	p := seenPenalty{ex: &httpclient.Exchange{Received: now.Add(-5 * time.Second)}, violation: 1, until: now.Unix()}
	if err := s.retryUnder(p, now.Add(-2*time.Second), stop.Add(time.Millisecond)); err != nil {
		t.Fatalf("a late 200 was judged: %v", err)
	}
	if why := s.Broken(); !strings.Contains(why, "decided before penalty_until − 1 s") {
		t.Fatalf("no broken assumption recorded: %q", why)
	}
}
