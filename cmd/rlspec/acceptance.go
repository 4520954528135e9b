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
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/service"
)

// runAcceptance runs the Gherkin suite: settings from flags over the
// environment, the verdict table on stdout, one sentence on stderr when the
// suite cannot run. TARGET_IMAGE is started here (the containers package)
// before the suite is given the URLs.
func runAcceptance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, flt, store, err := acceptanceConfig(args, os.LookupEnv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return couldNotRun(stderr, "acceptance", "", err.Error())
	}
	dir := cfg.Target.ReportDir
	if err := acceptance.CheckProfile(cfg.Target.Profile); err != nil {
		return couldNotRun(stderr, "acceptance", dir, err.Error())
	}
	if err := acceptance.CheckTags(cfg.Target.Tags); err != nil {
		return couldNotRun(stderr, "acceptance", dir, "could not run: "+err.Error())
	}
	if cfg.Target.Profile == service.ProfileAll {
		return runAll(ctx, cfg.Target, flt, store, stdout, stderr)
	}
	if cfg.Target.Image != "" && cfg.Target.URL == "" {
		// Start TARGET_IMAGE and its flag-off twin, fill the URLs, and
		// remove the containers on every path out (failure, Ctrl-C).
		given := flagGiven(args, "client-ips")
		if _, ok := os.LookupEnv("CLIENT_IPS"); ok {
			given = true
		}
		_, stop, err := containers.StartForHarness(ctx, &cfg.Target, containers.HarnessOptions{Twin: true, ClientIPsGiven: given, Untrusted: true}, prefixed(stderr, "rlspec acceptance: "))
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: "+oneLine(err.Error()))
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "rlspec acceptance: removing the containers: %v\n", err)
			}
		}()
	}
	if cfg.Target.URL == "" && cfg.Target.Image == "" {
		p, err := startEmbedded(&cfg, flt, store)
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
// bearer token when it carries none), so RL-EXT-AUTH-01 runs against it.
func startEmbedded(cfg *acceptance.Config, flt fault.Name, store fakeserver.StoreKind) (*embedded.Pair, error) {
	tc := &cfg.Target
	if tc.Headers == nil {
		tc.Headers = http.Header{}
	}
	if tc.Headers.Get("Authorization") == "" {
		tc.Headers.Set("Authorization", "Bearer rlspec-embedded-"+service.NewUUID())
	}
	*tc = tc.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
	p, err := embedded.StartPair(tc.Limit, tc.Window, tc.Sentinel, embedded.Options{Penalties: tc.ClaimedPenalties(), IETF: tc.AnswersIETF(), Bypass: tc.ClaimedBypass(), Tiers: tc.ClaimedTiers(),
		Fault: flt, Store: store, TrustLoopbackProxies: tc.ClientIPs == service.ClientIPsXFF,
		RequireAuth: tc.Headers.Get("Authorization"),
		Profile:     fakeserver.Profile(tc.Profile), Align: fakeserver.Align(tc.WindowAlign)})
	if err != nil {
		return nil, err
	}
	tc.URL, tc.DisabledURL, tc.DB, tc.Schema = p.URL, p.DisabledURL, p.TargetDB, service.SchemaPRD
	tc.PenaltiesURL, tc.PenaltiesDB = p.PenaltiesURL, p.PenaltiesDB
	cfg.Name, cfg.Store = p.Description, p
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
const acceptanceSummary = `Run the Gherkin acceptance suite against TARGET_URL, TARGET_IMAGE or, with
neither, an embedded reference. Exit status: 0 pass, 1 fail, 2 could not run.`

// acceptanceConfig fills the one config struct from flags and environment;
// -h writes the usage to help. -fault NAME selects a fault of the embedded
// reference (self-tests).
func acceptanceConfig(args []string, getenv service.Getenv, help io.Writer) (acceptance.Config, fault.Name, fakeserver.StoreKind, error) {
	tc := service.DefaultConfig()
	fs := flag.NewFlagSet("rlspec acceptance", flag.ContinueOnError)
	tc.RegisterFlags(fs, getenv)
	faultName := fs.String("fault", "", "start the embedded reference with this fault (self-tests); see bin/fakeserver -list-faults")
	envStore, _ := getenv("STORE")
	storeName := fs.String("store", envStore, "the embedded reference's store: sqlite (default) or postgres, a throwaway cluster (STORE)")
	fail := func(err error) (acceptance.Config, fault.Name, fakeserver.StoreKind, error) {
		return acceptance.Config{}, "", "", err
	}
	if err := service.ParseFlags(fs, args, acceptanceSummary, help); err != nil {
		return fail(err)
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	if err := service.EnvErrors(fs); err != nil {
		return fail(err)
	}
	if err := tc.Validate(); err != nil {
		return fail(err)
	}
	f, err := fault.Parse(*faultName)
	if err != nil {
		return fail(err)
	}
	store, err := fakeserver.ParseStoreKind(*storeName)
	if err != nil {
		return fail(fmt.Errorf("STORE: %w", err))
	}
	if (f != fault.None || store != fakeserver.StoreSQLite) && (tc.URL != "" || tc.Image != "") {
		return fail(errors.New("-fault and STORE apply to the embedded reference only; unset TARGET_URL and TARGET_IMAGE"))
	}
	return acceptance.Config{Target: tc}, f, store, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
