package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// writeProbes writes the matrix's section on `rlspec probe`: per target
// the settings it suggested, where target.env says otherwise, and what it
// could not tell with its own reason.
func writeProbes(b *strings.Builder, rl Rlspec, outs []Outcome) {
	var rows []Outcome
	for _, o := range outs {
		if o.Probe != nil {
			rows = append(rows, o)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## What `rlspec probe` suggests\n\n")
	fmt.Fprintf(b, "Each started target is probed first, with the default PROBE_BUDGET and only what a user knows\n")
	fmt.Fprintf(b, "without reading the limiter's configuration (%s from its env files);\n", strings.Join(probeGiven, ", "))
	fmt.Fprintf(b, "the suggestion is compared with target.env's %s.\n", strings.Join(probeCompared, ", "))
	fmt.Fprintf(b, "A disagreement here is about the probe, not a difference from expected.md. ")
	if len(rl.ProbeProfiles) > 0 {
		fmt.Fprintf(b, "The probe suggests one of %s.\n", strings.Join(rl.ProbeProfiles, ", "))
	} else {
		fmt.Fprintf(b, "\n")
	}
	fmt.Fprintf(b, "Where the suggested profile is target.env's, `rlspec acceptance` is run as the probe printed it and\n")
	fmt.Fprintf(b, "its verdicts are compared with expected.md (*verdicts as printed*).\n")
	fmt.Fprintf(b, "\n| limiter | probe suggests | target.env says otherwise | agrees | verdicts as printed | took |\n|---|---|---|---|---|---|\n")
	for _, o := range rows {
		p := *o.Probe
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", o.Target.Label(), cellText(suggestedText(p)), cellText(otherwise(p)),
			cellText(agreement(p, o.Target.Env["PROFILE"], rl.ProbeProfiles)), cellText(printedText(p)), p.Took.Round(time.Second))
	}
	fmt.Fprintf(b, "\n%s\n", probeLimits)
	fmt.Fprintf(b, "\nWhat the probe could not tell, in its own words:\n\n")
	for _, o := range rows {
		p := *o.Probe
		switch {
		case p.Err != "":
			fmt.Fprintf(b, "- %s: could not probe: %s\n", o.Target.Label(), cellText(p.Err))
		case len(p.Unknown) == 0:
			fmt.Fprintf(b, "- %s: nothing\n", o.Target.Label())
		default:
			fmt.Fprintf(b, "- %s:\n", o.Target.Label())
			for _, u := range p.Unknown {
				fmt.Fprintf(b, "  - %s\n", cellText(u))
			}
		}
	}
}

// suggestedText is the suggestion as NAME=value words; the probe's
// error when it could not run.
func suggestedText(p ProbeOutcome) string {
	if p.Err != "" {
		return "—"
	}
	var s []string
	for _, st := range p.Suggested {
		s = append(s, "`"+st.Name+"="+st.Value+"`")
	}
	return strings.Join(s, " ")
}

// otherwise lists target.env's settings the suggestion differs on or
// leaves out.
func otherwise(p ProbeOutcome) string {
	var s []string
	for _, c := range p.Checks {
		switch {
		case c.Got == "":
			s = append(s, "`"+c.Name+"="+c.Want+"` (not suggested)")
		case !c.Same && c.Guessed:
			s = append(s, "`"+c.Name+"="+c.Want+"` (probe: "+c.Got+", its placeholder)")
		case !c.Same:
			s = append(s, "`"+c.Name+"="+c.Want+"` (probe: "+c.Got+")")
		}
	}
	return strings.Join(s, ", ")
}

// agreement is the summary cell, naming a profile the probe cannot
// suggest.
func agreement(p ProbeOutcome, want string, profiles []string) string {
	a := p.Agreement()
	if want != "" && len(profiles) > 0 && !slices.Contains(profiles, want) {
		a += " (the probe has no " + want + " to suggest)"
	}
	if p.Err != "" {
		a += ": " + p.Err
	}
	return a
}

// cellText is s on one line for a table cell or list item: pipes
// escaped, never cut.
func cellText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
}

// printedText says how the acceptance run with the suggestion compares
// with expected.md.
func printedText(p ProbeOutcome) string {
	switch {
	case !p.AsPrintedRan && p.AsPrintedNot != "":
		return "not run: " + p.AsPrintedNot
	case !p.AsPrintedRan:
		return "not run"
	case len(p.AsPrinted) == 0:
		return "as expected.md"
	}
	var s []string
	for _, d := range p.AsPrinted {
		s = append(s, esc(d.String()))
	}
	return fmt.Sprintf("%d differ: %s", len(p.AsPrinted), strings.Join(s, "; "))
}

// probeLimits says where a probe cannot agree with target.env, and why:
// what no answer of one endpoint shows within a budget of requests.
const probeLimits = `Where the probe cannot agree, and why:

- ` + "`FEATURES=multi-instance`" + ` (redis_rate): the probe is given one instance; that several share one
  store shows only across instances (` + "`TARGET_URLS`" + `).
- ` + "`FEATURES=counts-refused`" + ` (Fiber's and HAProxy's counters): refused requests weighing on the next
  window look, in the probe's few refusals, like the weighting itself; the probe names it as undetermined.
  With the status only (HAProxy) the probe reads W from when the refused key came back while it tried
  once a second, and those counted tries delay that return to a multiple of W: the probe says so.
- ` + "`LB_MODE=nodelay`" + ` (nginx nodelay, default-503): a leaky bucket that answers its queue at once
  answers as a token bucket of B + 1 (profiles.md checks it so); the probe suggests the token bucket and
  prints the leaky bucket as the same claim, and the comparison reads it as such.
- Flask-Limiter's fixed-window-elastic-expiry: no profile describes a window whose end each request
  moves; the probe suggests the fixed window target.env checks it as, and says why no profile fits.`
