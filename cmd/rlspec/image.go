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
	"github.com/rlspec/rlspec/envflag"
)

// imageConfig is the whole configuration of `rlspec image`.
type imageConfig struct {
	tag     string
	pkg     string
	smoke   bool
	verbose bool
	harness string // harness image tag, empty: skip
}

// imageSummary is the first paragraph of `rlspec image -h`.
const imageSummary = `Build the reference server's container image (FROM scratch, through the
Docker API) and, with -smoke, start it once and check GET /healthz.`

// runImage builds the reference server's image (make image): a FROM scratch
// image from the static fakeserver binary, through the Docker API. With
// -smoke (default) it then starts the image once and checks /healthz; the
// container is removed also on failure and on Ctrl-C.
func runImage(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c imageConfig
	fs := flag.NewFlagSet("rlspec image", flag.ContinueOnError)
	fs.StringVar(&c.tag, "tag", containers.ReferenceImage, "image tag to build")
	fs.StringVar(&c.pkg, "package", containers.ReferencePackage, "main package compiled into the image")
	fs.BoolVar(&c.smoke, "smoke", true, "start the built image once and check GET /healthz")
	fs.BoolVar(&c.verbose, "v", false, "print the go and docker build output")
	fs.StringVar(&c.harness, "harness-tag", containers.HarnessImage, "also build the harness image (rlspec, loadgen, features embedded) with this tag; empty skips it")
	if err := envflag.Parse(fs, args, imageSummary, stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return couldNotRun(stderr, "image", "", err.Error())
	}
	if fs.NArg() > 0 {
		return couldNotRun(stderr, "image", "", fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	log := io.Discard
	if c.verbose {
		log = stderr
	}
	st := &imageSteps{started: time.Now()}
	start := time.Now()
	err := containers.BuildImage(ctx, c.tag, containers.WithPackage(c.pkg), containers.WithBuildLog(log))
	st.step("build "+c.tag, start, err, false)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec image: %v\n", err)
		return st.write(stderr, 2)
	}
	fmt.Fprintf(stdout, "built %s\n", c.tag)
	if code := buildHarness(ctx, c, st, log, stdout, stderr); code != 0 {
		return st.write(stderr, code)
	}
	if !c.smoke {
		return st.write(stderr, 0)
	}
	start = time.Now()
	err = smokeImage(ctx, c.tag, log)
	st.step("smoke test: "+c.tag+" answers GET /healthz with 200", start, err, ctx.Err() == nil)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec image: smoke test of %s: %v\n", c.tag, err)
		if ctx.Err() != nil {
			return st.write(stderr, 2) // interrupted: could not run
		}
		return st.write(stderr, 1)
	}
	fmt.Fprintf(stdout, "smoke test passed: %s answers GET /healthz with 200\n", c.tag)
	return st.write(stderr, 0)
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
