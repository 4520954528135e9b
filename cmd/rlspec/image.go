package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/containers"
)

// imageConfig is the whole configuration of `rlspec image`.
type imageConfig struct {
	tag     string
	pkg     string
	smoke   bool
	verbose bool
}

// runImage builds the reference server's image (make image): a FROM scratch
// image from the static fakeserver binary, through the Docker API. With
// -smoke (default) it then starts the image once and checks /healthz; the
// container is removed also on failure and on Ctrl-C.
func runImage(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c imageConfig
	fs := flag.NewFlagSet("rlspec image", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.tag, "tag", containers.ReferenceImage, "image tag to build")
	fs.StringVar(&c.pkg, "package", containers.ReferencePackage, "main package compiled into the image")
	fs.BoolVar(&c.smoke, "smoke", true, "start the built image once and check GET /healthz")
	fs.BoolVar(&c.verbose, "v", false, "print the go and docker build output")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rlspec image: unexpected arguments %q\n", fs.Args())
		return 2
	}
	log := io.Discard
	if c.verbose {
		log = stderr
	}
	if err := containers.BuildImage(ctx, c.tag, containers.WithPackage(c.pkg), containers.WithBuildLog(log)); err != nil {
		fmt.Fprintf(stderr, "rlspec image: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "built %s\n", c.tag)
	if !c.smoke {
		return 0
	}
	if err := smokeImage(ctx, c.tag, log); err != nil {
		fmt.Fprintf(stderr, "rlspec image: smoke test of %s: %v\n", c.tag, err)
		if ctx.Err() != nil {
			return 2 // interrupted: could not run
		}
		return 1
	}
	fmt.Fprintf(stdout, "smoke test passed: %s answers GET /healthz with 200\n", c.tag)
	return 0
}

// smokeImage starts tag, checks GET /healthz and removes the container.
func smokeImage(ctx context.Context, tag string, log io.Writer) (err error) {
	tg, err := containers.StartTarget(ctx, tag, containers.WithLog(log), containers.WithStartupTimeout(30*time.Second))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, tg.Terminate(ctx)) }()
	reqCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, tg.URL+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("healthz: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthz: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthz: status %d", resp.StatusCode)
	}
	return nil
}
