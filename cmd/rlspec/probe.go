package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/probe"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
)

// probeSummary is the first paragraph of `rlspec probe -h`.
const probeSummary = `Look at your rate-limited endpoint (TARGET_URL) with at most PROBE_BUDGET
requests and suggest the settings of an acceptance run: the dialect of its
answers, the limit and window (or burst and rate), the refusal, how clients
are keyed — and what it could not tell, with what telling it would take.
It gives no verdict. Exit status: 0 probed, 2 could not probe.`

// probeCmd is everything `rlspec probe` reads.
type probeCmd struct {
	Target  service.Config
	Given   profile.Name // PROFILE when given
	Budget  int
	MaxWait time.Duration
	Shown   []probe.Setting
	Notes   []string
}

// probeFlags are the target contract's settings the probe takes.
var probeFlags = []string{service.FlagURL, service.FlagPath, service.FlagHeaders, service.FlagBodyTemplate, service.FlagClientIPs,
	service.FlagProfile, service.FlagKey, service.FlagKeyFormat, service.FlagMethod, service.FlagDialect, service.FlagResetFormat,
	service.FlagHeaderPrefix, service.FlagLimitedStatus}

// runProbe probes TARGET_URL and prints what it saw and the settings to
// try; one sentence and exit 2 when it cannot.
func runProbe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	env := envflag.Record(os.LookupEnv)
	cmd, err := probeConfig(args, env.Lookup, stdout)
	warnUnknown(stderr, "rlspec probe", env)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "rlspec probe: %s\n", oneLine(err.Error()))
		return 2
	}
	if err != nil {
		return fail(err)
	}
	tc := cmd.Target
	local := tc.CheckClientIPs(ctx, nil, nil) == nil
	if !local && tc.ClientIPs == httpclient.Bind {
		// Bind cannot reach another host; the suggestion says so.
		tc.ClientIPs = httpclient.XFF
		cmd.Shown = append(cmd.Shown, probe.Setting{Name: "CLIENT_IPS", Value: "xff"})
		cmd.Notes = append(cmd.Notes, "CLIENT_IPS=xff: the target is not on loopback, so rlspec cannot send from addresses of its own; the service must take the client address from X-Forwarded-For")
	}
	t, err := probe.NewHTTPTarget(tc)
	if err != nil {
		return fail(err)
	}
	defer t.Close()
	s, err := probe.Run(ctx, t, probe.Options{Budget: cmd.Budget, MaxWait: cmd.MaxWait, Answer: tc.Answer(), Profile: cmd.Given, Local: local})
	if err != nil {
		return fail(fmt.Errorf("could not probe: %w", err))
	}
	probe.Report{Endpoint: tc.Method + " " + redact.URL(tc.Endpoint(tc.URL)), Local: local, Session: s,
		Suggest: probe.Suggest(s, cmd.Given), Target: cmd.Shown, Notes: cmd.Notes}.Write(stdout)
	return 0
}

// probeConfig reads the probe's settings from flags over the environment.
func probeConfig(args []string, getenv envflag.Getenv, help io.Writer) (probeCmd, error) {
	tc := service.DefaultConfig()
	fs := flag.NewFlagSet("rlspec probe", flag.ContinueOnError)
	tc.RegisterSome(fs, getenv, probeFlags...)
	for name, usage := range map[string]string{
		service.FlagURL:     "your running service's endpoint, e.g. http://127.0.0.1:8080/api/items (TARGET_URL)",
		service.FlagProfile: "the design, when you know it: " + profile.Choices(false) + "; unset, the probe suggests one (PROFILE)",
		service.FlagPath:    "path of the endpoint, joined to TARGET_URL; unset: TARGET_URL's own path, else / (or /v1/ride_summary for PROFILE=prd) (TARGET_PATH)",
	} {
		fs.Lookup(name).Usage, fs.Lookup(name).DefValue = usage, ""
	}
	cmd := probeCmd{Budget: probe.DefaultBudget, MaxWait: service.DefaultMaxWait}
	budget, _ := getenv("PROBE_BUDGET")
	fs.StringVar(&budget, "budget", budget, fmt.Sprintf("the most requests the probe sends, never more (PROBE_BUDGET; default %d)", probe.DefaultBudget))
	service.MaxWaitVar(fs, getenv, &cmd.MaxWait)
	if err := envflag.Parse(fs, args, probeSummary, help); err != nil {
		return cmd, err
	}
	if fs.NArg() > 0 {
		return cmd, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := envflag.Errors(fs); err != nil {
		return cmd, err
	}
	if budget != "" {
		n, err := strconv.Atoi(budget)
		if err != nil {
			return cmd, fmt.Errorf("PROBE_BUDGET=%q is not a number of requests", budget)
		}
		cmd.Budget = n
	}
	if err := probe.CheckBudget(cmd.Budget); err != nil {
		return cmd, err
	}
	if err := service.CheckMaxWait(cmd.MaxWait); err != nil {
		return cmd, err
	}
	if tc.URL == "" || tc.URL == service.TargetEmbedded {
		return cmd, errors.New("TARGET_URL is not set: rlspec probe looks at your running service, e.g. TARGET_URL=http://127.0.0.1:8080/api/items")
	}
	if envflag.Given(fs, getenv, service.FlagProfile, "PROFILE") {
		cmd.Given = tc.Profile
		if tc.Profile == profile.Every {
			return cmd, errors.New("PROFILE=all: the probe looks for one profile; name it, or leave PROFILE unset")
		}
	} else {
		tc.Profile = probe.Unguessed // a generic profile's requests: KEY, TARGET_METHOD
	}
	if err := tc.Validate(); err != nil {
		return cmd, err
	}
	cmd.Shown = shownTarget(tc, fs, getenv)
	if _, err := tc.ResolvePath(envflag.Given(fs, getenv, service.FlagPath, "TARGET_PATH"), nil); err != nil {
		return cmd, err
	}
	cmd.Target = tc.ForProfile(tc.Profile)
	cmd.Notes = []string{redact.URLCredentialNote(tc.URL), redact.CredentialNote(tc.Headers)}
	return cmd, nil
}

// shownTarget are the settings given that say where the target is and how
// to ask it, as the acceptance command repeats them: credentials as
// variable references.
func shownTarget(tc service.Config, fs *flag.FlagSet, getenv envflag.Getenv) []probe.Setting {
	shown := []probe.Setting{{Name: "TARGET_URL", Value: redact.CurlURL(tc.URL)}}
	given := func(flagName, env string) bool { return envflag.Given(fs, getenv, flagName, env) }
	if given(service.FlagPath, "TARGET_PATH") {
		shown = append(shown, probe.Setting{Name: "TARGET_PATH", Value: probe.Word(tc.Path)})
	}
	if len(tc.Headers) > 0 {
		shown = append(shown, probe.Setting{Name: "TARGET_HEADERS", Value: redact.Headers(tc.Headers)})
	}
	for _, s := range []struct{ flag, env, value string }{
		{service.FlagMethod, "TARGET_METHOD", tc.Method}, {service.FlagBodyTemplate, "BODY_TEMPLATE", tc.BodyTemplate},
		{service.FlagKey, "KEY", tc.Key.String()}, {service.FlagKeyFormat, "KEY_FORMAT", tc.KeyFormat},
		{service.FlagClientIPs, "CLIENT_IPS", string(tc.ClientIPs)},
	} {
		if given(s.flag, s.env) {
			shown = append(shown, probe.Setting{Name: s.env, Value: probe.Word(s.value)})
		}
	}
	return shown
}
