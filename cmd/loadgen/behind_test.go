package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
)

// TestSlowTargetThroughput: 100 req/s against a service that answers one
// request at a time in 20 ms (50 req/s) reports a throughput near 50 req/s,
// not the scheduled 100, and says the target fell behind.
func TestSlowTargetThroughput(t *testing.T) {
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		time.Sleep(20 * time.Millisecond) // the service's own pace, not synchronisation
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	env := envflag.Map(map[string]string{"TARGET_URL": srv.URL, "RATE": "100", "DURATION": "3s", "WARMUP": "0", "THRESHOLDS": "", "REPORT_DIR": dir})
	var out, errb bytes.Buffer
	if code := runLoad(context.Background(), nil, &out, &errb, env); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var rep struct {
		Requests      int64   `json:"requests"`
		AchievedRate  float64 `json:"achieved_rate"`
		ScheduledRate float64 `json:"scheduled_rate"`
		AnsweredLate  int64   `json:"answered_late"`
		Behind        bool    `json:"behind"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.AchievedRate < 30 || rep.AchievedRate > 65 || rep.ScheduledRate != 100 || !rep.Behind || rep.AnsweredLate == 0 {
		t.Errorf("load.json: %+v\n%s", rep, out.String())
	}
	for _, want := range []string{"at 100.0 req/s", "throughput: ", "BEHIND", "answered after it"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "(100.0 req/s") {
		t.Errorf("summary reports the schedule as the throughput:\n%s", out.String())
	}
}
