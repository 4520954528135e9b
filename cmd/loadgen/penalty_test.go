package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlspec/rlspec/envflag"
)

// TestRunPenaltiesApart: against the embedded reference with penalties
// claimed (its default tiers: the second violation starts a penalty), one
// key of limit 1 gets one 200, one 429 from the algorithm (the first,
// free violation) and every later 429 under a penalty, counted apart in
// load.json and junit.xml.
func TestRunPenaltiesApart(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PROFILE": "sliding-log", "FEATURES": "penalties", "RL_LIMIT": "1", "RL_WINDOW": "60s",
		"BUCKETS": "1", "RATE": "100", "DURATION": "300ms", "WARMUP": "0", "THRESHOLDS": "p95<10s", "REPORT_DIR": dir}
	var out, errb bytes.Buffer
	if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var rep struct {
		Requests  int64
		Penalties bool
		ByStatus  struct {
			OK        int64 `json:"200"`
			Limited   int64 `json:"429"`
			Algorithm int64 `json:"429_algorithm"`
			Penalty   int64 `json:"429_penalty"`
		} `json:"by_status"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.ByStatus
	if !rep.Penalties || rep.Requests < 3 || s.OK != 1 || s.Algorithm != 1 || s.Penalty != s.Limited-1 || s.OK+s.Limited != rep.Requests {
		t.Fatalf("load.json: %+v\n%s", rep, out.String())
	}
	junit, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(junit, []byte(`name="status_429_algorithm" value="1"`)) || !bytes.Contains(junit, []byte(`name="status_429_penalty"`)) {
		t.Fatalf("junit.xml lacks the split:\n%s", junit)
	}
}
