package fakeserver

import (
	"net/http"
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
