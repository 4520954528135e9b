package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rlspec/rlspec/racehunt/sqlhunt"

	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget"
)

// sqlRaceLimit is the quota a TARGET_SQL hunt uses when RL_LIMIT is not
// given: small enough for bursts to exhaust it.
const sqlRaceLimit = 3

// runSQLRace hunts races in spec/004's function (TARGET_SQL): generated
// bursts of concurrent calls, some after the key's window passed (its row
// aged), each burst's allowed count checked exactly.
func runSQLRace(ctx context.Context, cfg raceConfig, stdout, stderr io.Writer) int {
	dir := cfg.ReportDir
	tc := cfg.Target
	if _, given := cfg.set["RL_LIMIT"]; !given {
		tc.Limit = sqlRaceLimit
	}
	desc := sqltarget.Describe(tc)
	if tc.DB == service.DBEmbedded {
		sql, err := embedded.StartSQL(ctx, cfg.Variant)
		if err != nil {
			return couldNotRun(stderr, "race", dir, "could not run: "+oneLine(err.Error()))
		}
		defer sql.Close()
		tc.DB, desc = sql.DSN, sql.Description
	}
	tr, err := sqltarget.New(ctx, sqltarget.ConfigFor(tc))
	if err != nil {
		return couldNotRun(stderr, "race", dir, "could not run: "+oneLine(err.Error()))
	}
	defer tr.Close()
	if err := tr.CheckAging(ctx); err != nil {
		return couldNotRun(stderr, "race", dir, "could not run: "+oneLine(err.Error()))
	}
	res, err := sqlhunt.HuntSQL(ctx, tr, sqlhunt.SQLHuntOptions{
		Limit: tc.Limit, Window: tc.Window, KeyHeader: sqltarget.ConfigFor(tc).KeyHeader,
		Checks: cfg.Checks, Seed: cfg.Seed, Repeat: cfg.Repeat,
		Log: func(format string, a ...any) { fmt.Fprintf(stderr, "rlspec race: "+format+"\n", a...) },
	})
	if err != nil {
		return couldNotRun(stderr, "race", dir, "could not run: "+oneLine(err.Error()))
	}
	target := fmt.Sprintf("%s (N=%d, W=%s)", desc, tc.Limit, tc.Window)
	if err := junit.WriteFile(dir, sqlRaceJUnit(cfg, target, res)); err != nil {
		fmt.Fprintf(stderr, "rlspec race: %v\n", err)
	}
	if !res.Found {
		if cfg.Seed != 0 {
			fmt.Fprintf(stdout, "rlspec race: seed %d did not reproduce: 0/%d runs violated FW-1/FW-3/FW-4 against %s (%s)\n", cfg.Seed, res.Repeat, target, res.Duration.Round(time.Millisecond))
			return 0
		}
		fmt.Fprintf(stdout, "rlspec race: no violation in %d workloads (%d calls, %s) against %s\n", res.Checks, res.Calls, res.Duration.Round(time.Millisecond), target)
		fmt.Fprintf(stdout, "  seeds %d … %d\n", res.SearchSeed, res.SearchSeed+uint64(res.Checks)-1)
		return 0
	}
	fmt.Fprintf(stdout, "rlspec race: VIOLATION after %d passing workload(s) against %s (detected in %s)\n", res.Checks, target, res.Detected.Round(time.Millisecond))
	fmt.Fprintln(stdout, "violations:")
	for _, v := range res.Violations {
		fmt.Fprintf(stdout, "  - %s\n", v)
	}
	fmt.Fprintln(stdout, "workload:")
	for _, line := range strings.Split(strings.TrimRight(res.Workload.String(), "\n"), "\n") {
		fmt.Fprintf(stdout, "  %s\n", line)
	}
	fmt.Fprintf(stdout, "workload reproduced %d/%d\n", res.Reproduced, res.Repeat)
	fmt.Fprintf(stdout, "seed: %d\nreplay: %s\n", res.Workload.Seed, replayCommand(cfg, res.Workload.Seed))
	return 1
}

// sqlRaceJUnit is a SQL hunt as JUnit: one case, failed with the
// violations of the failing workload.
func sqlRaceJUnit(cfg raceConfig, target string, res sqlhunt.SQLResult) junit.Suite {
	s := junit.Suite{Name: "rlspec race: " + target, Elapsed: res.Duration, Properties: []junit.Property{
		junit.Prop("target", target), junit.Prop("workloads", res.Checks), junit.Prop("calls", res.Calls),
		junit.Prop("seed", res.SearchSeed),
	}}
	tc := junit.Case{Name: "exact allowed counts, no error of the function (FW-1, FW-3, FW-4)", Classname: "rlspec.race"}
	if res.Found {
		s.Properties = append(s.Properties, junit.Prop("failing seed", res.Workload.Seed), junit.Prop("replay", replayCommand(cfg, res.Workload.Seed)))
		tc.Failure = &junit.Problem{Message: res.Violations[0], Type: "sql-race",
			Text: strings.Join(res.Violations, "\n") + "\n\nworkload:\n" + res.Workload.String()}
	}
	s.Cases = append(s.Cases, tc)
	return s
}
