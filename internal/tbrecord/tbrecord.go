// Package tbrecord runs a test function against a testing.TB that records
// failures instead of failing: how a suite's own tests show that each of its
// checks fails against an implementation that breaks it.
package tbrecord

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// recorder notes Errorf/Fatalf; Fatal* end the checked function only.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// Failures runs check on its own goroutine with a recording TB built on t
// (Cleanup, TempDir and the like go to t) and returns what it reported.
func Failures(t testing.TB, check func(tb testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.failed...)
}
