package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/loadgen"
)

// Against the embedded leaky-bucket reference, two keys each sent faster
// than the queue drains: the report carries the queueing delay the model
// prescribed and the service latency beside the latency, in load.json and
// on the console, and thresholds on either are evaluated.
func TestRunLeakyBucketReportsQueueingDelay(t *testing.T) {
	dir := t.TempDir()
	env := envflag.Map(map[string]string{
		"PROFILE": "leaky-bucket", "RL_BURST": "2", "RL_RATE": "20",
		"RATE": "100", "DURATION": "1s", "WARMUP": "200ms", "BUCKETS": "2",
		"REPORT_DIR": dir, "THRESHOLDS": "p99<30s;service_p99<30s;queue_max<30s",
	})
	var out, errb bytes.Buffer
	if code := runLoad(context.Background(), nil, &out, &errb, env); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep loadgen.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	// Each key is sent every 20 ms and drains one request per 50 ms: every
	// allowed request after an idle key's first waits, by the model.
	if rep.QueueDelayMs == nil || rep.ServiceLatencyMs == nil {
		t.Fatalf("load.json has no queue figures:\n%s", b)
	}
	if q := rep.QueueDelayMs; q.Count == 0 || q.Count > rep.ByStatus.OK || q.Max <= 0 {
		t.Errorf("queue delay %+v over %d 200s: want a positive delay for some of them", q, rep.ByStatus.OK)
	}
	if s := rep.ServiceLatencyMs; s.Count != rep.Requests || s.P50 > rep.LatencyMs.P50 {
		t.Errorf("service latency %+v beside latency %+v over %d requests", s, rep.LatencyMs, rep.Requests)
	}
	if rep.ByStatus.RateLimited == 0 {
		t.Errorf("no 429: the queue never filled (%+v)", rep.ByStatus)
	}
	for _, want := range []string{"queueing delay ", "service latency ", "threshold service_p99<30s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, out.String())
		}
	}
}
