package loadgen

import (
	"context"
	"errors"
	"testing"
)

// fakeCaller allows the first two calls of each key and records them.
type fakeCaller struct {
	calls  map[string]int
	closed bool
	fail   error
}

func (f *fakeCaller) Check(_ context.Context, key string) (int, error) {
	if f.fail != nil {
		return 0, f.fail
	}
	f.calls[key]++
	if f.calls[key] > 2 {
		return 429, nil
	}
	return 200, nil
}

func (f *fakeCaller) Close() error { f.closed = true; return nil }

func TestKeyDialerCallsAsTheRequestsKey(t *testing.T) {
	fc := &fakeCaller{calls: map[string]int{}}
	d := NewKeyDialer(func(context.Context) (KeyCaller, error) { return fc, nil }, DefaultTimeout)
	reqs, err := KeyRequests([]string{"a", "b"})()
	if err != nil || len(reqs) != 2 || string(reqs[1]) != "b" {
		t.Fatalf("requests %q, %v", reqs, err)
	}
	c, err := d.Dial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for range 3 {
		st, err := c.RoundTrip(reqs[0])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, st)
	}
	if got[0] != 200 || got[2] != 429 || fc.calls["b"] != 0 {
		t.Errorf("statuses %v, calls %v", got, fc.calls)
	}
	fc.fail = errors.New("connection lost")
	if _, err := c.RoundTrip(reqs[1]); err == nil {
		t.Error("a lost connection was not an error")
	}
	if c.Close(); !fc.closed {
		t.Error("Close did not close the caller")
	}
	if _, err := KeyRequests(nil)(); err == nil {
		t.Error("no keys accepted")
	}
}
