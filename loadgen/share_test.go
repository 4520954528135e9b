package loadgen

import (
	"bytes"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestShareOf(t *testing.T) {
	var buckets int
	for i := range 3 {
		s, err := ShareOf(i, 3, 900, 10)
		if err != nil {
			t.Fatal(err)
		}
		if s.Rate != 300 || s.Offset != time.Duration(i)*time.Second/900 || s.String() != []string{"0/3", "1/3", "2/3"}[i] {
			t.Errorf("share %d: %+v", i, s)
		}
		if want := []int{4, 3, 3}[i]; s.Buckets != want {
			t.Errorf("share %d: %d buckets, want %d", i, s.Buckets, want)
		}
		buckets += s.Buckets
	}
	if buckets != 10 {
		t.Errorf("shares hold %d buckets, want the 10", buckets)
	}
	if s, err := ShareOf(1, 2, 0, 10); err != nil || s.Pacer() != nil || s.Rate != 0 {
		t.Errorf("closed loop: %+v %v, want no pacer", s, err)
	}
	for _, bad := range [][3]int{{0, 0, 10}, {3, 3, 10}, {-1, 3, 10}, {0, 3, 2}} {
		if _, err := ShareOf(bad[0], bad[1], 100, bad[2]); err == nil {
			t.Errorf("ShareOf(%v) accepted", bad)
		}
	}
}

// TestSharesInterleave: the shares' schedules together are the total's:
// three generators at 1000/3 req/s send at exactly the instants one
// generator at 1000 req/s would.
func TestSharesInterleave(t *testing.T) {
	const n, per = 3, 200
	var got []time.Duration
	for i := range n {
		s, err := ShareOf(i, n, 1000, 30)
		if err != nil {
			t.Fatal(err)
		}
		p := s.Pacer()
		for k := range uint64(per) {
			got = append(got, p.At(k))
			if d := p.Due(p.At(k)); d != k+1 {
				t.Fatalf("share %d: Due(At(%d)) = %d, want %d", i, k, d, k+1)
			}
			if k > 0 {
				if d := p.Due(p.At(k) - 1); d != k {
					t.Fatalf("share %d: Due just before At(%d) = %d, want %d", i, k, d, k)
				}
			}
		}
		if d := p.Due(s.Offset - 1); d != 0 {
			t.Errorf("share %d: %d due before its offset", i, d)
		}
	}
	sort.Slice(got, func(a, b int) bool { return got[a] < got[b] })
	total := ConstantPacer{Rate: 1000}
	for k, at := range got {
		want := total.At(uint64(k))
		if d := at - want; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("request %d of the merged schedule at %v, want %v", k, at, want)
		}
	}
}

// TestStartAtIsAbsolute: an attack on an absolute start waits for it,
// measures from it however late it woke, records the lateness, and its
// interval log says so in a comment that ReadHlog reads back.
func TestStartAtIsAbsolute(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	startAt := t0.Add(time.Second)
	clk := &fakeClock{now: t0, late: 3 * time.Millisecond}
	var hlog bytes.Buffer
	res := runAttack(t, &fakeDialer{}, fixedRequests(4), WithClock(clk), WithStartAt(startAt),
		WithPacer(OffsetPacer{ConstantPacer: ConstantPacer{Rate: 1000}, Offset: 500 * time.Microsecond}),
		WithDuration(20*time.Millisecond), WithWarmup(10*time.Millisecond), WithHlog(&hlog),
		WithMeta(Meta{Generator: "1/2"}))
	if want := startAt.Add(10 * time.Millisecond); !res.Start.Equal(want) {
		t.Errorf("measured from %v, want %v: START_AT plus the warm-up, not the late wake-up", res.Start, want)
	}
	if res.Meta.StartLag != 3*time.Millisecond || !res.Meta.StartAt.Equal(startAt) || res.Meta.Rate != 1000 {
		t.Errorf("meta %+v", res.Meta)
	}
	if got := res.Totals.Requests(); got != 20 {
		t.Errorf("%d requests measured, want 20", got)
	}
	l, err := ReadHlog(&hlog)
	if err != nil {
		t.Fatal(err)
	}
	if g := l.Generator; g.Generator != "1/2" || !g.StartAt.Equal(startAt) || g.StartLagMs != 3 {
		t.Errorf("log's generator %+v", g)
	}
}

func TestStartSkew(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	gens := []GeneratorRun{{StartAt: at, StartLagMs: 0.5}, {StartAt: at, StartLagMs: 4}, {StartAt: at, StartLagMs: 1}, {StartLagMs: 90}}
	if got := startSkew(gens); got != 3500*time.Microsecond {
		t.Errorf("skew %v, want 3.5ms (the one without a start instant left out)", got)
	}
	if got := startSkew(gens[:1]); got != 0 {
		t.Errorf("skew of one generator %v", got)
	}
}

// TestReadHlogCutMidLine: the log of a generator that died while writing
// still gives the intervals it wrote whole.
func TestReadHlogCutMidLine(t *testing.T) {
	var hlog bytes.Buffer
	runAttack(t, &fakeDialer{}, fixedRequests(2), WithClock(&fakeClock{now: time.Unix(1_700_000_000, 0)}),
		WithRate(100), WithDuration(50*time.Millisecond), WithWarmup(0), WithHlog(&hlog))
	whole := hlog.String()
	cut := whole[:len(whole)-10]
	if strings.HasSuffix(cut, "\n") {
		t.Fatal("cut on a line end")
	}
	l, err := ReadHlog(strings.NewReader(cut))
	if err != nil {
		t.Fatalf("a log cut mid-line: %v", err)
	}
	var n int64
	for _, iv := range l.Intervals {
		n += iv.H.Corrected.TotalCount()
	}
	if n == 0 {
		t.Error("no latency read back from the whole lines")
	}
}
