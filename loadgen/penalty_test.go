package loadgen

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

const (
	penaltyJSON   = `{"error":{"code":"RATE_LIMITED","retryAfter":4},"penalty_active":true,"penalty_until":1800000005}`
	algorithmJSON = `{"error":{"code":"RATE_LIMITED","retryAfter":2}}`
)

// TestReadResponsePenalties: with penalties read, a 429 whose body marks
// a penalty is StatusPenalty, in every framing and however the bytes
// arrive; the algorithm's 429 stays 429, other statuses are untouched, and
// the response is read to its end (the next one is left unread). Without
// penalties read, a marked 429 is a 429.
func TestReadResponsePenalties(t *testing.T) {
	const next = "HTTP/1.1 ..."
	chunked := func(body string) string {
		return fmt.Sprintf("HTTP/1.1 429 Too Many Requests\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n0\r\nX-Trailer: 1\r\n\r\n", 10, body[:10], len(body)-10, body[10:])
	}
	length := func(status, body string) string {
		return fmt.Sprintf("HTTP/1.1 %s\r\nContent-Length: %d\r\n\r\n%s", status, len(body), body)
	}
	long := `{"pad":"` + strings.Repeat("x", 2*maxRefusalBody) + `","penalty_active":true,"penalty_until":1}`
	cases := []struct {
		name       string
		raw        string
		penalties  bool
		status     int
		closeAfter bool
		rest       string
	}{
		{"marked, by length", length("429 Too Many Requests", penaltyJSON), true, StatusPenalty, false, next},
		{"marked, chunked", chunked(penaltyJSON), true, StatusPenalty, false, next},
		{"marked, until close", "HTTP/1.1 429 Too Many Requests\r\n\r\n" + penaltyJSON, true, StatusPenalty, true, ""},
		{"the algorithm's", length("429 Too Many Requests", algorithmJSON), true, 429, false, next},
		{"the algorithm's, chunked", chunked(algorithmJSON), true, 429, false, next},
		{"no body", "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n", true, 429, false, next},
		{"the marker past the bytes read", length("429 Too Many Requests", long), true, 429, false, next},
		{"a 200 with the words", length("200 OK", penaltyJSON), true, 200, false, next},
		{"penalties not read", length("429 Too Many Requests", penaltyJSON), false, 429, false, next},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.raw
			if tc.rest != "" {
				in += next // a body until close has nothing after it
			}
			r := bufio.NewReader(iotest.OneByteReader(strings.NewReader(in)))
			status, closeAfter, err := readResponse(r, tc.penalties)
			if err != nil || status != tc.status || closeAfter != tc.closeAfter {
				t.Fatalf("status %d close %v err %v; want %d close %v", status, closeAfter, err, tc.status, tc.closeAfter)
			}
			if rest, _ := io.ReadAll(r); string(rest) != tc.rest {
				t.Fatalf("%q left after the response, want %q", rest, tc.rest)
			}
		})
	}
	if _, _, err := readResponse(bufio.NewReader(strings.NewReader(length("429 X", penaltyJSON)[:60])), true); err == nil {
		t.Fatal("a short 429 body read as complete")
	}
}

// TestStatusCountsPenalties: 429s under a penalty count as 429s and apart;
// the algorithm's are the rest.
func TestStatusCountsPenalties(t *testing.T) {
	h := NewHistograms()
	for st, n := range map[int]int{200: 7, 429: 3, StatusPenalty: 5, 503: 1} {
		for range n {
			recordStatus(h.Status, st)
		}
	}
	s := StatusCountsOf(h.Status)
	if s.OK != 7 || s.RateLimited != 8 || s.Penalty != 5 || s.Algorithm != 3 || s.Other != 1 || s.Codes["429"] != 8 || s.Errors() != 1 {
		t.Fatalf("counts %+v", s)
	}
	if s := StatusCountsOf(NewHistograms().Status); s.Algorithm != 0 || s.Penalty != 0 {
		t.Fatalf("empty: %+v", s)
	}
}

// TestReportPenalties: with penalties the summary, load.json's by_status
// and junit.xml's properties give the algorithm's 429s and the penalty's
// apart; the interval counts those under a penalty; a merged log that
// holds penalty 429s says penalties.
func TestReportPenalties(t *testing.T) {
	start := time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC)
	res := sampleResult(start, 20, map[int]int{200: 10, 429: 4, StatusPenalty: 6})
	res.Meta.Penalties = true
	r := NewReport(res, nil)
	if !strings.Contains(r.Summary(), "429s: 4 from the algorithm, 6 under a penalty") {
		t.Errorf("summary:\n%s", r.Summary())
	}
	if r.ByStatus.RateLimited != 10 || r.Intervals[0].RateLimited != 10 || r.Intervals[0].Penalty != 6 {
		t.Errorf("by status %+v, interval %+v", r.ByStatus, r.Intervals[0])
	}
	props := map[string]string{}
	for _, p := range r.JUnit().Properties {
		props[p.Name] = p.Value
	}
	if props["status_429"] != "10" || props["status_429_algorithm"] != "4" || props["status_429_penalty"] != "6" {
		t.Errorf("junit properties %v", props)
	}
	res.Meta.Penalties = false
	if r := NewReport(res, nil); strings.Contains(r.Summary(), "under a penalty") {
		t.Errorf("penalties not claimed, yet split:\n%s", r.Summary())
	}
	merged := MergeLogs([]*Log{{Intervals: []LoggedInterval{{Start: start, End: start.Add(time.Second), H: res.Totals}}}}, time.Second)
	if !merged.Meta.Penalties {
		t.Error("a merged log with penalty 429s does not say penalties")
	}
}
