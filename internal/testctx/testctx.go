// Package testctx gives a test the context for slow work (building an
// image, compiling, starting containers): it ends when the test binary's
// own deadline (go test -timeout) is a minute away, or when the test ends.
// A starved machine is never failed by a limit the test sets itself; a
// hang still ends with an error that names its step, before go test's
// panic.
package testctx

import (
	"context"
	"testing"
	"time"
)

// Margin is how long before the binary's deadline the context ends: time
// for the step's error and the test's cleanup.
const Margin = time.Minute

// deadliner is a *testing.T (testing.B and F have no deadline).
type deadliner interface{ Deadline() (time.Time, bool) }

// Context is tb's context for slow work: cancelled at tb's cleanup and,
// when the binary has a deadline, Margin before it.
func Context(tb testing.TB) context.Context {
	ctx := tb.Context()
	if d, ok := tb.(deadliner); ok {
		if end, ok := d.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, end.Add(-Margin))
			tb.Cleanup(cancel)
		}
	}
	return ctx
}
