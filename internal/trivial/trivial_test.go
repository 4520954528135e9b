package trivial

import (
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDelayIsLogNormalWithTheGivenMedian(t *testing.T) {
	sample := config{median: time.Millisecond, sigma: 0.5, seed: 7}.delayFunc()
	const n = 40000
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = sample()
	}
	slices.Sort(ds)
	for _, q := range []struct {
		name string
		at   float64
		z    float64 // standard normal quantile
	}{{"p50", 0.50, 0}, {"p95", 0.95, 1.6449}, {"p99", 0.99, 2.3263}} {
		got := ds[int(q.at*n)]
		want := time.Duration(float64(time.Millisecond) * math.Exp(0.5*q.z))
		if d := math.Abs(float64(got-want)) / float64(want); d > 0.05 {
			t.Errorf("%s = %v, want %v ± 5%%", q.name, got, want)
		}
	}
}

func TestNoDelayByDefault(t *testing.T) {
	if f := (config{}).delayFunc(); f != nil {
		t.Fatal("zero median gives a delay sampler")
	}
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/ride_summary", strings.NewReader(`{"a":1}`)))
	if rec.Code != http.StatusOK || rec.Body.String() != "{}" {
		t.Fatalf("got %d %q, want 200 {}", rec.Code, rec.Body.String())
	}
}
