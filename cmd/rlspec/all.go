package main

import (
	"context"
	"io"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
)

// runAll is PROFILE=all: every profile with scenarios, each against an
// embedded reference serving it, at once, reported as one run. One
// TARGET_URL serves one profile, so an external target is refused.
func runAll(ctx context.Context, cmd acceptanceCmd, stdout, stderr io.Writer) int {
	tc, dir := cmd.Suite.Target, cmd.Suite.Settings.ReportDir
	if tc.URL != "" || cmd.Image != "" {
		return couldNotRun(stderr, "acceptance", dir, "PROFILE=all runs the embedded reference's profiles; a TARGET_URL or TARGET_IMAGE serves one profile: set PROFILE to it")
	}
	// On PostgreSQL one cluster for every profile's pair, each on
	// databases of its own: closed after them (deferred first).
	pg, err := embedded.StartPostgresFor(ctx, cmd.Store)
	if err != nil {
		return couldNotRun(stderr, "acceptance", dir, "could not run: start the embedded reference: "+oneLine(err.Error()))
	}
	defer pg.Close()
	var cfgs []acceptance.Config
	for _, p := range acceptance.AllProfiles() {
		c := acceptance.Config{Target: tc.Only(p), Settings: cmd.Suite.Settings}
		pair, err := startEmbedded(&c, cmd, pg)
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: start the embedded reference: "+oneLine(err.Error()))
		}
		defer pair.Close()
		cfgs = append(cfgs, c)
	}
	rep, err := acceptance.RunAll(ctx, cfgs, "embedded reference", acceptance.WithOutput(stdout))
	return acceptanceExit(stderr, dir, rep, err)
}
