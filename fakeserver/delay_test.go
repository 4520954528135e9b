package fakeserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestDelay: with Delay every ride waits at least that long before it is
// answered.
func TestDelay(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Delay = 60 * time.Millisecond
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	start := time.Now()
	resp, err := http.Post(r.URL+PathRideSummary, "application/json", strings.NewReader(`{"route_id":"335E"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if took := time.Since(start); took < cfg.Delay || resp.StatusCode != http.StatusOK {
		t.Errorf("HTTP %d after %s, want 200 after at least %s", resp.StatusCode, took, cfg.Delay)
	}
}

// TestDelayJitter: with DelayMax each request waits a time of its own in
// [Delay, DelayMax]: never less than Delay, and not all the same.
func TestDelayJitter(t *testing.T) {
	var waits []time.Duration
	h := delayed(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), 5*time.Millisecond, 40*time.Millisecond)
	for range 8 {
		start := time.Now()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/x", nil))
		waits = append(waits, time.Since(start))
	}
	distinct := map[time.Duration]bool{}
	for _, w := range waits {
		if w < 5*time.Millisecond {
			t.Errorf("waited %s, less than the 5ms floor", w)
		}
		distinct[w.Round(time.Millisecond)] = true
	}
	if len(distinct) < 2 {
		t.Errorf("8 waits all alike: %v", waits)
	}
}
