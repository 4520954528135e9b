package loadgen

import (
	"bytes"
	"testing"
	"time"
)

// writeLog records each Write apart, as a process killed between two
// writes would have left them.
type writeLog struct{ writes [][]byte }

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

// A generator killed between any two writes leaves a log whose every
// interval counts its requests: the latencies never arrive without the
// statuses (the tag read as the request count).
func TestHlogFileWritesWholeIntervals(t *testing.T) {
	start := time.UnixMilli(1_763_700_000_000)
	r := sampleResult(start, 50, map[int]int{200: 50})
	w := &writeLog{}
	f := newHlogFile(w)
	if err := f.header(r.Meta, start); err != nil {
		t.Fatal(err)
	}
	const intervals = 3
	for i := range intervals {
		from := start.Add(time.Duration(i) * time.Second)
		if err := f.interval(r.Totals, from, from.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.writes) != 1+intervals {
		t.Fatalf("%d writes, want the header and one per interval (%d)", len(w.writes), 1+intervals)
	}
	for cut := 2; cut <= len(w.writes); cut++ {
		l, err := ReadHlog(bytes.NewReader(bytes.Join(w.writes[:cut], nil)))
		if err != nil {
			t.Fatalf("cut after write %d: %v", cut, err)
		}
		if len(l.Intervals) != cut-1 {
			t.Errorf("cut after write %d: %d intervals, want %d", cut, len(l.Intervals), cut-1)
		}
		for _, iv := range l.Intervals {
			if iv.H.Requests() != 50 || iv.H.Corrected.TotalCount() != 50 {
				t.Errorf("cut after write %d: interval at %v counts %d requests and %d latencies, want 50 and 50",
					cut, iv.Start, iv.H.Requests(), iv.H.Corrected.TotalCount())
			}
		}
	}
}
