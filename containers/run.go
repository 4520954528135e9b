package containers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/moby/moby/api/types/container"
	tc "github.com/testcontainers/testcontainers-go"
	tcnetwork "github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"
)

// RunOptions configure RunToExit.
type RunOptions struct {
	Cmd     []string          // arguments after the entrypoint
	Env     map[string]string // environment
	Network string            // attach to this network (default bridge when empty)
	Binds   []string          // bind mounts, host:container
	User    string            // uid:gid, the image's user when empty
	Timeout time.Duration     // how long the container may run; default until ctx's deadline, else 5 minutes
	Log     io.Writer         // testcontainers' log (default discarded)
}

// RunToExit runs image to completion, as `docker run --rm` would, and
// returns its exit status and output (stdout and stderr interleaved). The
// container is removed on every path; a container still running after
// o.Timeout is an error.
func RunToExit(ctx context.Context, image string, o RunOptions) (code int, output string, err error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
		if d, ok := ctx.Deadline(); ok {
			o.Timeout = time.Until(d)
		}
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	opts := []tc.ContainerCustomizer{
		tc.WithLogger(printfLogger{o.Log}),
		tc.WithCmd(o.Cmd...),
		tc.WithEnv(o.Env),
		tc.WithLabels(map[string]string{LabelManaged: "true"}),
		tc.WithWaitStrategyAndDeadline(o.Timeout+10*time.Second, wait.ForExit().WithExitTimeout(o.Timeout)),
		tc.WithHostConfigModifier(func(hc *container.HostConfig) { hc.Binds = append(hc.Binds, o.Binds...) }),
		tc.WithConfigModifier(func(cc *container.Config) {
			if o.User != "" {
				cc.User = o.User
			}
		}),
	}
	if o.Network != "" {
		opts = append(opts, tcnetwork.WithNetworkName(nil, o.Network))
	}
	ctr, err := tc.Run(ctx, image, opts...)
	if ctr != nil {
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			err = errors.Join(err, tc.TerminateContainer(ctr, tc.StopContext(stopCtx)))
		}()
	}
	if err != nil {
		return 0, containerLog(ctx, ctr), fmt.Errorf("run %s: %w", image, err)
	}
	state, err := ctr.State(ctx)
	if err != nil {
		return 0, "", fmt.Errorf("run %s: state: %w", image, err)
	}
	if state.Running {
		return 0, containerLog(ctx, ctr), fmt.Errorf("run %s: still running after %s", image, o.Timeout)
	}
	return state.ExitCode, containerLog(ctx, ctr), nil
}

// containerLog returns ctr's whole log, or "" when there is none.
func containerLog(ctx context.Context, ctr tc.Container) string {
	if ctr == nil {
		return ""
	}
	rc, err := ctr.Logs(ctx)
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return string(b)
}
