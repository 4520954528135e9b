package penalties

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
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

// penaltyClient answers 429 under a penalty until `until` (with its
// Retry-After), each exchange taking lat: the first request comes back in
// time, a late one after the loop's stop.
type penaltyClient struct {
	until int64
	lat   []time.Duration // per request, in order
	n     *int
}

func (c penaltyClient) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	sent := time.Now()
	lat := c.lat[min(*c.n, len(c.lat)-1)]
	*c.n++
	h := http.Header{}
	h.Set("Retry-After", strconv.FormatInt(c.until-sent.Unix(), 10))
	return &httpclient.Exchange{Method: r.Method, Status: http.StatusTooManyRequests, Sent: sent, Received: sent.Add(lat), RespHeader: h,
		RespBody: []byte(fmt.Sprintf(`{"penalty_active":true,"penalty_until":%d}`, c.until))}
}
func (penaltyClient) Addr() netip.Addr { return netip.MustParseAddr("127.0.0.9") }
func (penaltyClient) Close()           {}

// A request that came back late but refused under the penalty spent
// nothing a penalty would not: after a judged one, the run ends there and
// nothing broke. As the only request, it leaves nothing judged: the
// assumption broke.
func TestLateRefusalUnderPenaltyEndsTheRun(t *testing.T) {
	for _, c := range []struct {
		name   string
		lat    []time.Duration
		broken bool
	}{
		{"judged, then late", []time.Duration{time.Millisecond, 10 * time.Second}, false},
		{"only late", []time.Duration{10 * time.Second}, true},
	} {
		now := time.Now()
		until := now.Add(30 * time.Second).Unix()
		n := 0
		s := testWorld(context.Background(), &scenario.Env{Config: service.DefaultConfig(), Now: time.Now, MaxWait: time.Minute})
		s.Key.Client, s.Key.Value = penaltyClient{until: until, lat: c.lat, n: &n}, "k"
		p := seenPenalty{ex: &httpclient.Exchange{Received: now.Add(-time.Second)}, violation: 1, until: until}
		if err := s.retryUnder(p, now, now.Add(time.Second)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if why := s.Broken(); (why != "") != c.broken {
			t.Errorf("%s: broken assumption %q, want broken=%v", c.name, why, c.broken)
		}
		if n != len(c.lat) {
			t.Errorf("%s: %d requests sent, want %d", c.name, n, len(c.lat))
		}
	}
}
