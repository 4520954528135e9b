package containers

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/internal/testctx"
	"github.com/rlspec/rlspec/service"
)

// post sends one ride summary for bucket and returns status and headers.
func post(t *testing.T, base, bucket string) (int, dialect.RateLimit) {
	t.Helper()
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := body.Render(bodytmpl.Bucket(bucket))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testctx.Context(t)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+service.DefaultPath, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", base, err)
	}
	resp.Body.Close()
	rl, err := dialect.ParseRateLimit(resp.Header)
	if err != nil {
		t.Fatalf("POST %s: status %d: %v", base, resp.StatusCode, err)
	}
	return resp.StatusCode, rl
}

// TestReferenceImageSmoke builds rlspec-reference:latest and runs it as two
// replicas on one database volume plus the flag-off twin: the replicas
// share one quota, the twin never limits.
func TestReferenceImageSmoke(t *testing.T) {
	t.Parallel()
	img := buildReference(t)
	tg := start(t, img, runLabel(t), WithReplicas(2), WithLimit(3), WithWindow(60*time.Second), WithDisabledTwin())

	for _, u := range append([]string{tg.DisabledURL}, tg.URLs...) {
		if code, body := get(t, http.MethodGet, u+"/healthz", nil); code != http.StatusOK {
			t.Fatalf("%s/healthz: %d %s", u, code, body)
		}
	}
	bucket := bodytmpl.NewDeviceBucket()
	for i, want := range []struct {
		status    int
		remaining int64
	}{{200, 2}, {200, 1}, {200, 0}, {429, 0}, {429, 0}} {
		base := tg.URLs[i%2] // alternate replicas: one quota in the shared database
		code, rl := post(t, base, bucket)
		if code != want.status || rl.Remaining != want.remaining || rl.Limit != 3 {
			t.Fatalf("request %d via replica %d: %d limit %d remaining %d, want %d remaining %d",
				i+1, i%2+1, code, rl.Limit, rl.Remaining, want.status, want.remaining)
		}
	}
	for i := 0; i < 4; i++ {
		code, rl := post(t, tg.DisabledURL, bucket)
		if code != 200 || rl.Remaining != service.DefaultSentinel {
			t.Fatalf("flag-off twin request %d: %d remaining %d, want 200 remaining %d", i+1, code, rl.Remaining, service.DefaultSentinel)
		}
	}
}
