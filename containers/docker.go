package containers

import (
	"context"
	"fmt"
	"io"

	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
)

// printfLogger adapts an io.Writer to testcontainers' logger.
type printfLogger struct{ w io.Writer }

func (l printfLogger) Printf(format string, v ...any) {
	fmt.Fprintf(l.w, format+"\n", v...)
}

func newProvider(ctx context.Context, log io.Writer) (*tc.DockerProvider, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := tc.NewDockerProvider(tc.WithLogger(printfLogger{log}))
	if err != nil {
		return nil, fmt.Errorf("docker: %w", err)
	}
	return p, nil
}

// Available reports whether a Docker engine answers, as an error saying why
// not; tests use it to skip with a one-line reason.
func Available(ctx context.Context) error {
	p, err := newProvider(ctx, io.Discard)
	if err != nil {
		return err
	}
	defer p.Close()
	if _, err := p.Client().Ping(ctx, client.PingOptions{}); err != nil {
		return fmt.Errorf("docker ping: %w", err)
	}
	return nil
}
