package containers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/moby/moby/api/types/container"
	tc "github.com/testcontainers/testcontainers-go"
)

// pollInterval is the pause between readiness probes.
const pollInterval = 100 * time.Millisecond

// stateChecker is what waitReady needs from a container: its state, to
// notice an early exit, and its logs for the error.
type stateChecker interface {
	State(ctx context.Context) (*container.State, error)
	Logs(ctx context.Context) (io.ReadCloser, error)
}

var _ stateChecker = (tc.Container)(nil)

// waitReady polls base until it answers HTTP with any status, the container
// stops running, timeout passes or ctx ends.
func waitReady(parent context.Context, base string, timeout time.Duration, ctr stateChecker) error {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	hc := &http.Client{Timeout: time.Second}
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
		if err != nil {
			return fmt.Errorf("readiness probe: %w", err)
		}
		resp, err := hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			return nil
		}
		last = err
		if exited := exitedError(ctx, ctr, "answering HTTP on "+base); exited != nil {
			return exited
		}
		select {
		case <-ctx.Done():
			if err := parent.Err(); err != nil {
				return fmt.Errorf("waiting for %s to answer HTTP: %w", base, err)
			}
			return fmt.Errorf("not answering HTTP on %s after %s: %w%s", base, timeout, last, logTail(ctr))
		case <-tick.C:
		}
	}
}

// exitedError returns an error with the container's log when it is no
// longer running, nil while it runs or when its state cannot be read.
func exitedError(ctx context.Context, ctr stateChecker, before string) error {
	if ctr == nil {
		return nil
	}
	st, err := ctr.State(ctx)
	if err != nil || st.Running || st.Restarting {
		return nil
	}
	return fmt.Errorf("container exited (status %d) before %s%s", st.ExitCode, before, logTail(ctr))
}

// logTail returns the last lines of the container's log, for errors.
func logTail(ctr stateChecker) string {
	if ctr == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rc, err := ctr.Logs(ctx)
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, _ := io.ReadAll(io.LimitReader(rc, 1<<20))
	b = bytes.TrimSpace(b)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	if len(b) == 0 {
		return " (container log empty)"
	}
	return "; container log:\n" + string(b)
}
