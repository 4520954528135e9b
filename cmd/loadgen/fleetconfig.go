package main

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/loadgen/fleet"
)

// fleetConfig is how `loadgen run` takes part in a load of several
// generators: as the one that starts them (GENERATORS > 1, on Docker
// Swarm, or -emit k8s for a Kubernetes Indexed Job), or as one of them
// (an index given: GENERATOR_INDEX, JOB_COMPLETION_INDEX or SWARM_TASK_SLOT).
type fleetConfig struct {
	Generators int
	Share      *loadgen.Share // set when this process is one of the generators
	StartAt    time.Time      // START_AT: the schedule's absolute start; zero: at once
	StartDelay time.Duration  // how far ahead of now the starter puts START_AT
	Image      string         // GENERATOR_IMAGE: holds /loadgen
	Emit       string         // "k8s": print the Job manifest instead of running
	Forward    []string       // the loadgen run flags passed on to every generator
}

type fleetFlags struct{ generators, index, startAt, startDelay, image, emit *string }

// fleetOwn are the flags a starter does not pass on to its generators:
// its own, and those of what it starts itself (the target image).
var fleetOwn = map[string]bool{"generators": true, "generator-index": true, "start-at": true, "start-delay": true,
	"generator-image": true, "emit": true, "report-dir": true, "target-image": true, "replicas": true, "store": true, "thresholds": true}

func registerFleet(fs *flag.FlagSet, getenv envflag.Getenv) fleetFlags {
	env := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := getenv(k); ok {
				if k == fleet.EnvSwarmSlot { // from 1
					if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
						return strconv.Itoa(n - 1)
					}
				}
				return v
			}
		}
		return ""
	}
	def := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	return fleetFlags{
		generators: fs.String("generators", def(env(fleet.EnvGenerators), "1"), "generators putting the load on together, each with its share of RATE and BUCKETS; more than 1 starts them on Docker Swarm (GENERATORS)"),
		index:      fs.String("generator-index", env(fleet.EnvIndex, fleet.EnvJobIndex, fleet.EnvSwarmSlot), "this process is generator i of GENERATORS, from 0 (GENERATOR_INDEX, else JOB_COMPLETION_INDEX, else SWARM_TASK_SLOT-1)"),
		startAt:    fs.String("start-at", env(fleet.EnvStartAt), "RFC 3339 instant the schedule starts at, waited for (START_AT)"),
		startDelay: fs.String("start-delay", def(env("START_DELAY"), "10s"), "GENERATORS > 1: START_AT is this far ahead of the start (START_DELAY)"),
		image:      fs.String("generator-image", def(env("GENERATOR_IMAGE"), containers.HarnessImage), "GENERATORS > 1: the image the generators run /loadgen from (GENERATOR_IMAGE)"),
		emit:       fs.String("emit", env("EMIT"), "k8s: print the load as a Kubernetes Indexed Job manifest instead of running it (EMIT)"),
	}
}

// parse fills c.Fleet and, for a generator, replaces the totals by its
// share: rate, buckets, its own report directory, no thresholds (the
// merge checks them).
func (f fleetFlags) parse(fs *flag.FlagSet, getenv envflag.Getenv, c *config) error {
	var errs []error
	fc := &c.Fleet
	var err error
	if fc.Generators, err = strconv.Atoi(strings.TrimSpace(*f.generators)); err != nil || fc.Generators < 1 {
		errs = append(errs, fmt.Errorf("GENERATORS=%q is not a positive integer", *f.generators))
	}
	if s := strings.TrimSpace(*f.startAt); s != "" {
		if fc.StartAt, err = time.Parse(time.RFC3339Nano, s); err != nil {
			errs = append(errs, fmt.Errorf("START_AT=%q is not an RFC 3339 instant such as 2026-11-25T23:00:00Z", s))
		}
	}
	if fc.StartDelay, err = envflag.ParseDuration(*f.startDelay); err != nil || fc.StartDelay < 0 {
		errs = append(errs, fmt.Errorf("START_DELAY=%q is not a duration", *f.startDelay))
	}
	fc.Image, fc.Emit = *f.image, *f.emit
	if fc.Emit != "" && fc.Emit != "k8s" {
		errs = append(errs, fmt.Errorf("EMIT=%q: the one manifest emitted is k8s", fc.Emit))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if s := strings.TrimSpace(*f.index); s != "" {
		i, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("GENERATOR_INDEX=%q is not an integer", s)
		}
		share, err := loadgen.ShareOf(i, fc.Generators, c.Rate, c.Buckets)
		if err != nil {
			return err
		}
		fc.Share = &share
		c.Rate, c.Buckets, c.Thresholds = share.Rate, share.Buckets, nil
		c.ReportDir = fleet.GeneratorDir(c.ReportDir, i)
		return nil
	}
	if fc.Generators == 1 && fc.Emit == "" {
		return nil
	}
	if _, err := loadgen.ShareOf(0, fc.Generators, c.Rate, c.Buckets); err != nil {
		errs = append(errs, err)
	}
	if c.Target.BodyTemplate != "" {
		errs = append(errs, errors.New("BODY_TEMPLATE is a file on this machine, which the generators cannot read: leave it unset with GENERATORS or EMIT"))
	}
	if c.Target.SQL != "" {
		errs = append(errs, errors.New("TARGET_SQL runs on one machine: leave GENERATORS and EMIT unset"))
	}
	if c.Replicas > 1 {
		errs = append(errs, errors.New("REPLICAS > 1 spreads one generator's connections: with GENERATORS set TARGET_URL to a load balancer instead"))
	}
	if fc.Emit != "" && c.Target.URL == "" {
		errs = append(errs, errors.New("EMIT=k8s needs TARGET_URL, the address the pods reach the target at"))
	}
	fc.Forward = forward(fs, getenv)
	return errors.Join(errs...)
}

// envName is the variable a flag's usage names last, in parentheses.
var envName = regexp.MustCompile(`\(([A-Z][A-Z0-9_]*)\)$`)

// forward is the settings given to this starter, as flags for its
// generators: a flag set on the command line as parsed (a secret header
// value shows as its $VARIABLE, which the generator's environment then
// needs), one from the environment as the variable says.
func forward(fs *flag.FlagSet, getenv envflag.Getenv) []string {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	var out []string
	fs.VisitAll(func(fl *flag.Flag) {
		if fleetOwn[fl.Name] {
			return
		}
		if set[fl.Name] {
			out = append(out, "-"+fl.Name+"="+fl.Value.String())
			return
		}
		if m := envName.FindStringSubmatch(fl.Usage); m != nil {
			if v, ok := getenv(m[1]); ok {
				out = append(out, "-"+fl.Name+"="+v)
			}
		}
	})
	return out
}

// attackOptions are the attack's options of a generator: its share's
// offset schedule and the shared start instant.
func (fc fleetConfig) attackOptions() []loadgen.Option {
	var opts []loadgen.Option
	if fc.Share != nil && fc.Share.Rate > 0 {
		opts = append(opts, loadgen.WithPacer(fc.Share.Pacer()))
	}
	if !fc.StartAt.IsZero() {
		opts = append(opts, loadgen.WithStartAt(fc.StartAt))
	}
	return opts
}

// generator is "i/N" for a generator, "" otherwise.
func (fc fleetConfig) generator() string {
	if fc.Share == nil {
		return ""
	}
	return fc.Share.String()
}
