package loadgen

import (
	"flag"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

var long = flag.Bool("loadgen.long", false, "run the 10 s stall test instead of the 3 s one")

// stallHandler answers 200 and, when the trigger-th request arrives, holds
// every request for pause (once). The pause is the behaviour under test, so
// a timer inside the fake target is legitimate.
type stallHandler struct {
	trigger int64
	pause   time.Duration
	n       atomic.Int64
	gate    atomic.Pointer[chan struct{}]
}

func (h *stallHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	if h.n.Add(1) == h.trigger {
		ch := make(chan struct{})
		h.gate.Store(&ch)
		time.AfterFunc(h.pause, func() { close(ch) })
	}
	if g := h.gate.Load(); g != nil {
		<-*g
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte("{}"))
}

// The target stalls once for 500 ms during an open-loop run at 1000 req/s on
// a few connections: the latency corrected for coordinated omission shows the
// stall at p99, the uncorrected latency (from the actual send) hides it.
func TestStallIsVisibleOnlyWhenCorrected(t *testing.T) {
	duration := 3 * time.Second
	if *long {
		duration = 10 * time.Second
	}
	const rate = 1000
	h := &stallHandler{trigger: int64(rate*duration.Seconds()) / 2, pause: 500 * time.Millisecond}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	d, err := NewHTTPDialer("http://"+ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	req := []byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	res := runAttack(t, d, func() ([][]byte, error) { return [][]byte{req}, nil },
		WithRate(rate), WithDuration(duration), WithWarmup(0), WithConnections(8))
	rep := NewReport(res, nil)
	t.Logf("requests %d, corrected %+v, uncorrected %+v, lag %+v", rep.Requests, rep.LatencyMs, rep.UncorrectedLatencyMs, rep.SchedulerLagMs)
	if want := int64(rate * duration.Seconds()); rep.Requests != want {
		t.Fatalf("requests = %d, want %d", rep.Requests, want)
	}
	if rep.ByStatus.OK != rep.Requests {
		t.Fatalf("statuses %+v", rep.ByStatus)
	}
	if h.gate.Load() == nil {
		t.Fatal("the stall never happened")
	}
	if rep.LatencyMs.P99 < 100 {
		t.Errorf("corrected p99 = %.3f ms, want >= 100 ms: the stall is hidden", rep.LatencyMs.P99)
	}
	if rep.LatencyMs.Max < 450 {
		t.Errorf("corrected max = %.3f ms, want about 500 ms", rep.LatencyMs.Max)
	}
	if rep.UncorrectedLatencyMs.P99 >= 100 {
		t.Errorf("uncorrected p99 = %.3f ms, want < 100 ms (only the few in-flight requests saw the stall)", rep.UncorrectedLatencyMs.P99)
	}
}
