package loadgen

import (
	"strings"
	"testing"
)

func TestParseThresholds(t *testing.T) {
	got, err := ParseThresholds(" p95<3ms; p99 <= 5ms;errors<0.1%;rate>=990; p999<250us;p99.9<= 2ms;max<1s;rate_limited<0.05;")
	if err != nil {
		t.Fatal(err)
	}
	want := []Threshold{
		{Expr: "p95<3ms", Metric: "p95", Op: "<", Limit: 3},
		{Expr: "p99 <= 5ms", Metric: "p99", Op: "<=", Limit: 5},
		{Expr: "errors<0.1%", Metric: "errors", Op: "<", Limit: 0.001},
		{Expr: "rate>=990", Metric: "rate", Op: ">=", Limit: 990},
		{Expr: "p999<250us", Metric: "p99.9", Op: "<", Limit: 0.25}, // p999 is read as p99.9
		{Expr: "p99.9<= 2ms", Metric: "p99.9", Op: "<=", Limit: 2},
		{Expr: "max<1s", Metric: "max", Op: "<", Limit: 1000},
		{Expr: "rate_limited<0.05", Metric: "rate_limited", Op: "<", Limit: 0.05},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d thresholds, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("threshold %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseThresholdsErrors(t *testing.T) {
	for _, s := range []string{"p95", "p95<", "p95<3", "p95<3parsecs", "p42<3ms", "errors<5ms", "errors<150%", "p95=3ms", "<3ms", "p95<-1ms", "rate>10ms", "p95<3..1ms"} {
		_, err := ParseThresholds(s)
		if err == nil {
			t.Errorf("ParseThresholds(%q) accepted", s)
			continue
		}
		if !strings.Contains(err.Error(), "THRESHOLDS entry") || !strings.Contains(err.Error(), "p95<3ms") {
			t.Errorf("ParseThresholds(%q) error %q does not name the entry and show the syntax", s, err)
		}
	}
	if th, err := ParseThresholds(" ; "); err != nil || len(th) != 0 {
		t.Errorf("empty list: %v, %v", th, err)
	}
}

func TestThresholdEvaluate(t *testing.T) {
	f := Figures{Latency: Percentiles{P50: 1, P95: 2.5, P99: 7, Max: 40}, Requests: 1000, Errors: 2, RateLimited: 100, Rate: 995}
	tests := []struct {
		expr   string
		pass   bool
		actual float64
	}{
		{"p95<3ms", true, 2.5},
		{"p95<2.5ms", false, 2.5},
		{"p95<=2.5ms", true, 2.5},
		{"p99<5ms", false, 7},
		{"max<0.04s", false, 40},
		{"max<=0.04s", true, 40},
		{"errors<0.1%", false, 0.002},
		{"errors<0.5%", true, 0.002},
		{"rate_limited<=10%", true, 0.1},
		{"rate>=990", true, 995},
		{"rate>1000", false, 995},
		{"p50>0.5ms", true, 1},
	}
	for _, tt := range tests {
		th, err := ParseThresholds(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		v := th[0].Evaluate(f)
		if v.Pass != tt.pass || v.Actual != tt.actual {
			t.Errorf("%s on %+v = pass %v actual %v, want pass %v actual %v", tt.expr, f, v.Pass, v.Actual, tt.pass, tt.actual)
		}
	}
	// Nothing measured: nothing shown, so every threshold fails.
	th, _ := ParseThresholds("p95<3ms;errors<1%")
	for _, x := range th {
		if x.Evaluate(Figures{}).Pass {
			t.Errorf("%s passed with no requests", x.Expr)
		}
	}
}
