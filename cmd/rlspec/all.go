package main

import (
	"context"
	"io"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/service"
)

// runAll is PROFILE=all: every profile with scenarios, each against an
// embedded reference serving it, at once, reported as one run. One
// TARGET_URL serves one profile, so an external target is refused.
func runAll(ctx context.Context, tc service.Config, flt fault.Name, store fakeserver.StoreKind, stdout, stderr io.Writer) int {
	dir := tc.ReportDir
	if tc.URL != "" || tc.Image != "" {
		return couldNotRun(stderr, "acceptance", dir, "PROFILE=all runs the embedded reference's profiles; a TARGET_URL or TARGET_IMAGE serves one profile: set PROFILE to it")
	}
	var cfgs []acceptance.Config
	for _, p := range acceptance.AllProfiles() {
		c := acceptance.Config{Target: tc.Only(p)}
		pair, err := startEmbedded(&c, flt, store)
		if err != nil {
			return couldNotRun(stderr, "acceptance", dir, "could not run: start the embedded reference: "+oneLine(err.Error()))
		}
		defer pair.Close()
		cfgs = append(cfgs, c)
	}
	rep, err := acceptance.RunAll(ctx, cfgs, "embedded reference", acceptance.WithOutput(stdout))
	return acceptanceExit(stderr, dir, rep, err)
}
