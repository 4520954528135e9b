package loadgen

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sampleResult is a result with known contents: n requests with latencies
// 1..n ms (corrected) and half that (uncorrected), statuses by the given
// counts, lag 0.1 ms each.
func sampleResult(start time.Time, n int, statuses map[int]int) *Result {
	res := &Result{Meta: Meta{Target: "http://x/v1/ride_summary", Mode: "open", Rate: 100, Connections: 2, Buckets: 7},
		Start: start, End: start.Add(2 * time.Second), Totals: NewHistograms()}
	for i := 1; i <= n; i++ {
		recordLatency(res.Totals.Corrected, time.Duration(i)*time.Millisecond)
		recordLatency(res.Totals.Uncorrected, time.Duration(i)*time.Millisecond/2)
		recordLatency(res.Totals.Lag, 100*time.Microsecond)
		// a modelled queue, so the interval log carries its tags too
		res.Totals.recordQueue(queued{modelled: true, allowed: true, wait: time.Duration(i) * time.Millisecond / 4}, time.Duration(i)*time.Millisecond, 200, nil)
	}
	for st, k := range statuses {
		for range k {
			recordStatus(res.Totals.Status, st)
		}
	}
	res.Intervals = []Interval{summarise(res.Totals, start, start.Add(time.Second))}
	return res
}

func TestHistogramsMerge(t *testing.T) {
	a, b := NewHistograms(), NewHistograms()
	for i := 1; i <= 100; i++ {
		recordLatency(a.Corrected, time.Duration(i)*time.Millisecond)
		recordStatus(a.Status, 200)
	}
	for i := 101; i <= 200; i++ {
		recordLatency(b.Corrected, time.Duration(i)*time.Millisecond)
		recordStatus(b.Status, 429)
	}
	recordLatency(b.Corrected, 500*time.Second) // clamped, still counted
	recordStatus(b.Status, statusError)
	if dropped := a.Merge(b); dropped != 0 {
		t.Fatalf("dropped %d", dropped)
	}
	p := PercentilesOf(a.Corrected)
	if p.Count != 201 || p.P50 < 100 || p.P50 > 101.1 || p.Max < 99.9e3 {
		t.Errorf("merged percentiles %+v", p)
	}
	s := StatusCountsOf(a.Status)
	if s.OK != 100 || s.RateLimited != 100 || s.TransportErrors != 1 || s.Errors() != 1 {
		t.Errorf("merged statuses %+v", s)
	}
}

// An interval log written by an attack reads back to the same histograms,
// and two logs merge into their sum.
func TestHlogRoundTripAndMerge(t *testing.T) {
	start := time.UnixMilli(1_763_700_000_000)
	r1 := sampleResult(start, 1000, map[int]int{200: 990, 429: 5, 0: 5})
	r2 := sampleResult(start.Add(300*time.Millisecond), 500, map[int]int{200: 500})
	var b1, b2 bytes.Buffer
	if err := WriteHlog(&b1, r1); err != nil {
		t.Fatal(err)
	}
	if err := WriteHlog(&b2, r2); err != nil {
		t.Fatal(err)
	}
	l1, err := ReadHlog(bytes.NewReader(b1.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(l1.Intervals) != 1 || !l1.Intervals[0].Start.Equal(start) {
		t.Fatalf("intervals %+v", l1.Intervals)
	}
	got := l1.Intervals[0].H
	for _, tag := range tags {
		if !got.byTag(tag).Equals(r1.Totals.byTag(tag)) {
			t.Errorf("tag %s differs after the round trip: count %d vs %d", tag, got.byTag(tag).TotalCount(), r1.Totals.byTag(tag).TotalCount())
		}
	}
	l2, err := ReadHlog(bytes.NewReader(b2.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	m := MergeLogs([]*Log{l1, l2}, time.Second)
	if m.Totals.Requests() != 1500 {
		t.Errorf("merged requests %d, want 1500", m.Totals.Requests())
	}
	if q, sv := m.Totals.Queue.TotalCount(), m.Totals.Service.TotalCount(); q != 1500 || sv != 1500 {
		t.Errorf("merged queue %d and service %d values, want 1500 each", q, sv)
	}
	if len(m.Intervals) != 1 || m.Intervals[0].Requests != 1500 {
		t.Errorf("merged intervals %+v, want one aligned interval of 1500", m.Intervals)
	}
	s := StatusCountsOf(m.Totals.Status)
	if s.OK != 1490 || s.RateLimited != 5 || s.TransportErrors != 5 {
		t.Errorf("merged statuses %+v", s)
	}
	if !m.Start.Equal(start) || !m.End.Equal(r2.End) {
		t.Errorf("merged window %v..%v", m.Start, m.End)
	}
	// p50 of 1..1000 and 1..500 ms combined is about 375 ms.
	if p := PercentilesOf(m.Totals.Corrected).P50; p < 370 || p > 380 {
		t.Errorf("merged p50 %v ms", p)
	}
}

func TestReadHlogRejects(t *testing.T) {
	for name, in := range map[string]string{
		"empty":       "",
		"comments":    "#[Histogram log format version 1.3]\n",
		"foreign tag": "Tag=other,0.0,1.0,0.0,HISTFAAAABx4nJNpmSzMwMDAxsDEwMDAzAQAC3AA7w==\n",
		"garbage":     "1,2,3,notbase64\n",
	} {
		if _, err := ReadHlog(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestReportJSONFields(t *testing.T) {
	start := time.UnixMilli(1_763_700_000_000)
	th, err := ParseThresholds("p95<3ms;errors<1%")
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(sampleResult(start, 1000, map[int]int{200: 900, 429: 90, 500: 4, 0: 6}), th)
	dir := t.TempDir()
	if err := rep.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m["requests"] != float64(1000) {
		t.Errorf("requests = %v", m["requests"])
	}
	bs := m["by_status"].(map[string]any)
	for k, want := range map[string]float64{"200": 900, "429": 90, "other": 4, "transport_errors": 6} {
		if bs[k] != want {
			t.Errorf("by_status[%s] = %v, want %v", k, bs[k], want)
		}
	}
	for _, key := range []string{"latency_ms", "uncorrected_latency_ms", "scheduler_lag_ms"} {
		p, ok := m[key].(map[string]any)
		if !ok {
			t.Fatalf("%s missing", key)
		}
		for _, f := range []string{"p50", "p90", "p95", "p99", "p999", "max"} {
			if _, ok := p[f].(float64); !ok {
				t.Errorf("%s.%s missing", key, f)
			}
		}
	}
	lat := m["latency_ms"].(map[string]any)
	if p95 := lat["p95"].(float64); p95 < 949 || p95 > 951 {
		t.Errorf("latency_ms.p95 = %v, want ~950", p95)
	}
	if p95 := m["uncorrected_latency_ms"].(map[string]any)["p95"].(float64); p95 < 474 || p95 > 476 {
		t.Errorf("uncorrected_latency_ms.p95 = %v, want ~475", p95)
	}
	ths := m["thresholds"].([]any)
	if len(ths) != 2 {
		t.Fatalf("thresholds %v", ths)
	}
	if v := ths[0].(map[string]any); v["expr"] != "p95<3ms" || v["pass"] != false {
		t.Errorf("threshold 0 = %v", v)
	}
	// 4 others and 6 transport errors in 1000 are 1%: not below 1%.
	if v := ths[1].(map[string]any); v["expr"] != "errors<1%" || v["pass"] != false || v["actual"] != 0.01 {
		t.Errorf("threshold 1 = %v", v)
	}
	if m["pass"] != false || len(rep.Breached()) != 2 {
		t.Errorf("pass %v, breached %v", m["pass"], rep.Breached())
	}
	html, err := os.ReadFile(filepath.Join(dir, "load.html"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(html, []byte("<svg")) != 3 || !bytes.Contains(html, []byte("p95&lt;3ms")) || bytes.Contains(html, []byte("<script")) || bytes.Contains(html, []byte("<?xml")) {
		t.Errorf("load.html lacks its three inline plots or the thresholds")
	}
	f, err := os.Open(filepath.Join(dir, "load.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("load.png: %v", err)
	}
	if b := img.Bounds(); b.Dx() != int(plotW.Dots(dpi)+0.5) || b.Dy() != int(3*plotH.Dots(dpi)+0.5) {
		t.Errorf("load.png is %v", b)
	}
}
