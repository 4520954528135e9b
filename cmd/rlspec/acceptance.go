package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/acceptance/preflight"
	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
	"github.com/rlspec/rlspec/steps"
)

// runAcceptance runs the Gherkin suite: settings from flags over the
// environment, the verdict table on stdout, one sentence on stderr when the
// suite cannot run. TARGET_IMAGE is started here (the containers package)
// before the suite is given the URLs.
func runAcceptance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, exit, ok := commandSettings("acceptance", args, stdout, stderr, acceptanceConfig)
	if !ok {
		return exit
	}
	cfg, store := cmd.Suite, cmd.Store
	dir := cfg.Settings.ReportDir
	if err := preflight.CheckProfile(cfg.Target.Profile); err != nil {
		return couldNotRun(stderr, "acceptance", dir, err.Error())
	}
	if err := acceptance.CheckTags(cfg.Settings.Tags); err != nil {
		return couldNotRun(stderr, "acceptance", dir, "could not run: "+err.Error())
	}
	if cfg.Target.Profile == profile.Every {
		return runAll(ctx, cmd, stdout, stderr)
	}
	if cfg.Target.DB == service.DBEmbedded {
		sql, err := startSQL(ctx, &cfg, cmd.Variant)
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: "+oneLine(err.Error()))
		}
		defer sql.Close()
	}
	if cmd.Image != "" && cfg.Target.SQL == "" {
		// Start TARGET_IMAGE and its flag-off twin, fill the URLs, and
		// remove the containers on every path out (failure, Ctrl-C).
		given := flagGiven(args, "client-ips")
		if _, ok := os.LookupEnv("CLIENT_IPS"); ok {
			given = true
		}
		ho := containers.HarnessOptions{Twin: true, ClientIPsGiven: given, Untrusted: true, Replicas: cmd.Replicas}
		if store == fakeserver.StorePostgres {
			ho.Postgres, ho.Store = true, &containers.StoreHandle{}
			cfg.Store = ho.Store // the fail-mode scenarios stop and restart it
		}
		h, err := containers.StartForHarness(ctx, cmd.Image, &cfg.Target, ho, prefixed(stderr, "rlspec acceptance: "))
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: "+oneLine(err.Error()))
		}
		defer func() {
			if err := h.Stop(); err != nil {
				fmt.Fprintf(stderr, "rlspec acceptance: removing the containers: %v\n", err)
			}
		}()
		cfg.Restarter = h
		cfg.URLs, cfg.UntrustedURL = h.URLs, h.UntrustedURL
	}
	if cfg.Target.URL == "" && cfg.Target.SQL == "" {
		p, err := startEmbedded(&cfg, cmd, nil)
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: start the embedded reference: "+oneLine(err.Error()))
		}
		defer p.Close()
	}
	rep, err := acceptance.Run(ctx, cfg, acceptance.WithOutput(stdout))
	return acceptanceExit(stderr, dir, rep, err)
}

// startEmbedded starts the embedded reference serving cfg's profile and
// points cfg at it: URLs, TARGET_DB, its store control and its name. The
// reference requires the Authorization TARGET_HEADERS carries (a fresh
// bearer token when it carries none), so EXT-AUTH-01 runs against it. With
// STORE=postgres it takes databases on pg, or on a cluster of its own when
// pg is nil.
func startEmbedded(cfg *acceptance.Config, cmd acceptanceCmd, pg *embedded.Postgres) (*embedded.Pair, error) {
	flt, store, replicas := cmd.Fault, cmd.Store, cmd.Replicas
	tc := &cfg.Target
	if tc.Headers == nil {
		tc.Headers = http.Header{}
	}
	if tc.Headers.Get("Authorization") == "" {
		tc.Headers.Set("Authorization", "Bearer rlspec-embedded-"+bodytmpl.NewUUID())
	}
	*tc = tc.SizedForEmbedded(cmd.Sized[0], cmd.Sized[1]).WithEmbeddedDefaults()
	answer, refusal := embedded.AnswerFor(*tc)
	p, err := embedded.StartPair(tc.Limit, tc.Window, tc.Sentinel, embedded.Options{Penalties: tc.ClaimedPenalties(), IETF: tc.AnswersIETF(), Bypass: tc.ClaimedBypass(), Tiers: tc.ClaimedTiers(),
		Fault: flt, Store: store, Postgres: pg, TrustLoopbackProxies: tc.ClientIPs == httpclient.XFF,
		RequireAuth: tc.Headers.Get("Authorization"),
		Profile:     profile.Name(tc.Profile), Align: profile.Align(tc.WindowAlign),
		Burst: tc.Burst, Rate: tc.Rate, QueueDelay: tc.Delay, NoDelay: tc.NoDelay(), Replicas: replicas, Answer: answer, RefusalBody: refusal})
	if err != nil {
		return nil, err
	}
	*tc = embedded.Claim(p.Point(*tc), p.URLs)
	cfg.URLs, cfg.PenaltiesDB = p.URLs, p.PenaltiesDB
	cfg.Name, cfg.Store, cfg.Restarter = p.Description, p, p
	return p, nil
}

// acceptanceExit is the exit status of a run: 2 with one sentence when it
// could not run, otherwise the report's verdict.
func acceptanceExit(stderr io.Writer, dir string, rep *acceptance.Report, err error) int {
	if err != nil {
		var cnr *acceptance.CouldNotRun
		if errors.As(err, &cnr) {
			return couldNotRun(stderr, "acceptance", dir, "could not run: "+oneLine(cnr.Reason))
		}
		return couldNotRun(stderr, "acceptance", dir, err.Error())
	}
	return rep.ExitCode()
}

// acceptanceSummary is the first paragraph of `rlspec acceptance -h`.
const acceptanceSummary = `Run the Gherkin acceptance suite against TARGET_URL, TARGET_IMAGE or
rlspec's embedded reference (TARGET_URL=embedded; also with no target at
all, except in CI). Exit status: 0 pass, 1 fail, 2 could not run.`

// acceptanceCmd is everything `rlspec acceptance` reads, filled once at
// the edge: the suite's config (the service and how the suite runs), and
// what this command starts before it (TARGET_IMAGE, or the embedded
// reference with a fault on a store).
type acceptanceCmd struct {
	Suite acceptance.Config
	Image string     // TARGET_IMAGE
	Fault fault.Name // -fault: the embedded reference's fault (self-tests)
	// Variant is -fault with TARGET_SQL: the variant of spec/004's function
	// TARGET_DB=embedded installs.
	Variant spec004.Variant
	Store   fakeserver.StoreKind // STORE: the embedded reference's store
	// Replicas are the instances started on one store (REPLICAS):
	// TARGET_IMAGE's containers or the embedded reference's servers.
	Replicas int
	// Sized says which of RL_LIMIT and RL_WINDOW were given: the embedded
	// reference of a generic profile takes small ones for the others.
	Sized [2]bool
}

// acceptanceConfig fills the one config struct from flags and environment;
// -h writes the usage to help. -fault NAME selects a fault of the embedded
// reference (self-tests).
func acceptanceConfig(args []string, getenv envflag.Getenv, help io.Writer) (acceptanceCmd, error) {
	tc, set := service.DefaultConfig(), acceptance.DefaultSettings()
	var image string
	fs := flag.NewFlagSet("rlspec acceptance", flag.ContinueOnError)
	tc.RegisterFlags(fs, getenv)
	set.RegisterFlags(fs, getenv)
	service.ImageVar(fs, getenv, &image)
	instances := service.InstancesVar(fs, getenv, "instances on one store: containers with TARGET_IMAGE, in-process servers otherwise (default 1; more than 1 claims multi-instance for the embedded reference)")
	var faults faultFlag
	fs.Var(&faults, "fault", "start the embedded reference with this fault (self-tests); see bin/fakeserver -list-faults")
	envStore, _ := getenv("STORE")
	storeName := fs.String("store", envStore, "the embedded reference's store: sqlite (default) or postgres, a throwaway cluster (STORE)")
	fail := func(err error) (acceptanceCmd, error) { return acceptanceCmd{}, err }
	if err := envflag.Parse(fs, args, acceptanceSummary, help); err != nil {
		return fail(err)
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	if err := envflag.Errors(fs); err != nil {
		return fail(err)
	}
	tc.SQLDefaults(envflag.Given(fs, getenv, service.FlagProfile, "PROFILE"))
	in, err := instances()
	if err == nil {
		err = chooseEmbedded(&tc, fs, getenv, len(in.URLs) > 0 || image != "")
	}
	if err == nil {
		err = in.Check(tc, image)
	}
	if err := errors.Join(tc.Validate(), set.Validate(), service.CheckImage(tc, image), err); err != nil {
		return fail(err)
	}
	if len(in.URLs) > 0 {
		// TARGET_URLS replaces TARGET_URL: the first is where every
		// scenario but the multi-instance ones goes.
		tc.URL = in.URLs[0]
	}
	urls, err := tc.ResolvePath(envflag.Given(fs, getenv, service.FlagPath, "TARGET_PATH"), in.URLs)
	if err != nil {
		return fail(err)
	}
	suite := acceptance.Config{Target: tc, Reached: acceptance.Reached{URLs: urls}, Settings: set}
	if tc.SQL != "" {
		// -fault names a variant of spec/004's function (TARGET_DB=embedded).
		v, err := faults.Variant(tc, *storeName)
		return acceptanceCmd{Suite: suite, Variant: v, Store: fakeserver.StoreSQLite}, err
	}
	f, err := faults.Fault()
	if err != nil {
		return fail(err)
	}
	store, err := fakeserver.ParseStoreKind(*storeName)
	if err != nil {
		return fail(fmt.Errorf("STORE: %w", err))
	}
	if f != fault.None && (tc.URL != "" || image != "") {
		return fail(errors.New("-fault applies to the embedded reference only; unset TARGET_URL, TARGET_URLS and TARGET_IMAGE"))
	}
	if store != fakeserver.StoreSQLite && tc.URL != "" {
		return fail(errors.New("STORE applies to the embedded reference and TARGET_IMAGE (STORE=postgres: the image on a throwaway PostgreSQL); unset TARGET_URL and TARGET_URLS"))
	}
	sized := [2]bool{envflag.Given(fs, getenv, "rl-limit", "RL_LIMIT"), envflag.Given(fs, getenv, "rl-window", "RL_WINDOW")}
	return acceptanceCmd{Suite: suite, Image: image, Fault: f, Store: store, Replicas: in.Replicas, Sized: sized}, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// What rlspec acceptance hands the suite to restart the target (PS-1).
var (
	_ steps.Restarter = (*containers.Harness)(nil)
	_ steps.Restarter = (*embedded.Pair)(nil)
)
