package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rlspec/rlspec/racehunt/histcheck"

	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/racehunt"
)

// raceProperties are the properties every race hunt checks, one JUnit test
// case each (a violation of a class not listed gets its own case too).
var raceProperties = []histcheck.Class{
	histcheck.ClassOversell, histcheck.ClassDuplicate, histcheck.ClassUndersell, histcheck.ClassOrder,
	histcheck.ClassCachedConflict, histcheck.ClassLimited, histcheck.ClassStatus, histcheck.ClassHeaders,
	histcheck.ClassLinearizable,
}

// raceJUnit is a hunt as JUnit: one case per property, failed with the
// violations of that class; the seed, workloads and target as properties.
func raceJUnit(cfg raceConfig, tgt racehunt.Target, res racehunt.Result) junit.Suite {
	s := junit.Suite{Name: "rlspec race: " + tgt.Describe(), Elapsed: res.Duration, Properties: []junit.Property{
		junit.Prop("target", tgt.Describe()), junit.Prop("workloads", res.Checks), junit.Prop("requests", res.Requests),
		junit.Prop("seed", res.SearchSeed),
	}}
	if res.Seed != 0 {
		s.Properties = append(s.Properties, junit.Prop("failing seed", res.Seed), junit.Prop("replay", replayCommand(cfg, res.Seed)))
	}
	byClass := map[histcheck.Class][]string{}
	all := append(append([]histcheck.Violation(nil), res.Violations...), res.Findings...)
	for _, v := range all {
		byClass[v.Class] = append(byClass[v.Class], v.String())
	}
	classes := append([]histcheck.Class(nil), raceProperties...)
	for _, v := range all {
		if !containsClass(classes, v.Class) {
			classes = append(classes, v.Class)
		}
	}
	for _, c := range classes {
		tc := junit.Case{Name: "no " + string(c), Classname: "rlspec.race"}
		if vs := byClass[c]; len(vs) > 0 {
			text := strings.Join(vs, "\n") + "\n\nshrunk workload:\n" + res.Workload.String()
			tc.Failure = &junit.Problem{Message: vs[0], Type: string(c), Text: text}
		}
		s.Cases = append(s.Cases, tc)
	}
	return s
}

func containsClass(cs []histcheck.Class, c histcheck.Class) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// printFindings lists the header and body findings of a hunt (they fail
// the run but never ended it: the algorithm was hunted regardless) and
// reports whether there were any.
func printFindings(w io.Writer, res racehunt.Result) bool {
	if len(res.Findings) == 0 {
		return false
	}
	fmt.Fprintf(w, "rlspec race: %d header or body finding(s), reported apart from the algorithm's verdict:\n", len(res.Findings))
	for _, f := range res.Findings {
		fmt.Fprintf(w, "  - %s\n", f)
	}
	return true
}
