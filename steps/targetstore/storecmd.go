package targetstore

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/rlspec/rlspec/steps/scenario"
)

// CommandStore is scenario.StoreControl through the user's STORE_DOWN_CMD and
// STORE_UP_CMD, each run by sh -c with a deadline; a failure carries the
// command's output.
type CommandStore struct {
	Down, Up string
	Timeout  time.Duration // per command; 0 = 60s
}

var _ scenario.StoreControl = CommandStore{}

// StoreDown runs STORE_DOWN_CMD.
func (c CommandStore) StoreDown(ctx context.Context) error {
	return c.run(ctx, "STORE_DOWN_CMD", c.Down)
}

// StoreUp runs STORE_UP_CMD.
func (c CommandStore) StoreUp(ctx context.Context) error { return c.run(ctx, "STORE_UP_CMD", c.Up) }

func (c CommandStore) run(ctx context.Context, name, cmd string) error {
	d := c.Timeout
	if d <= 0 {
		d = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var out bytes.Buffer
	x := exec.CommandContext(ctx, "sh", "-c", cmd)
	x.Stdout, x.Stderr = &out, &out
	x.WaitDelay = time.Second
	err := x.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%s did not finish within %s; output: %s", name, d, tail(out.String()))
	}
	if err != nil {
		return fmt.Errorf("%s: %w; output: %s", name, err, tail(out.String()))
	}
	return nil
}

// tail is the last lines of a command's output, on one line.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	if t := strings.Join(lines, " | "); t != "" {
		return t
	}
	return "(none)"
}
