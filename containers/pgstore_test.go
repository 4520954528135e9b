package containers

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/service"
)

// TestReplicasShareOnePostgres starts the reference image as two replicas
// on one throwaway PostgreSQL (HarnessOptions.Postgres): requests
// alternating between them spend one quota.
func TestReplicasShareOnePostgres(t *testing.T) {
	t.Parallel()
	if _, err := pgcluster.BinDir(); err != nil {
		t.Skip(err)
	}
	img := buildReference(t)
	cfg := service.DefaultConfig()
	cfg.Limit, cfg.Window = 3, time.Minute
	h, err := StartForHarness(context.Background(), img, &cfg, HarnessOptions{Postgres: true, Extra: []Option{WithReplicas(2), WithLabel("rlspec.test", t.Name())}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := h.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	urls := h.URLs
	if len(urls) != 2 {
		t.Fatalf("URLs %v, want 2 replicas", urls)
	}
	bucket := bodytmpl.NewDeviceBucket()
	for i, want := range []struct {
		status    int
		remaining int64
	}{{200, 2}, {200, 1}, {200, 0}, {429, 0}} {
		code, rl := post(t, urls[i%2], bucket)
		if code != want.status || rl.Remaining != want.remaining {
			t.Fatalf("request %d via replica %d: %d remaining %d, want %d remaining %d", i+1, i%2+1, code, rl.Remaining, want.status, want.remaining)
		}
	}
}
