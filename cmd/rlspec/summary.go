package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlspec/rlspec/internal/junit"
)

// runSummary turns a JUnit report into the Markdown a CI job appends to its
// step summary (rlspec summary -junit reports/junit.xml >> "$GITHUB_STEP_SUMMARY"):
// the totals, every failed and skipped scenario with its message, and the
// passed ones folded. It needs no API token, so it also works on pull
// requests from forks. Exit status 0 when the report was read, 2 when not;
// the verdict itself is the acceptance run's exit status.
func runSummary(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rlspec summary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := os.Getenv("REPORT_DIR")
	if dir == "" {
		dir = "reports"
	}
	path := fs.String("junit", filepath.Join(dir, "junit.xml"), "JUnit report to summarise: junit.xml in REPORT_DIR")
	title := fs.String("title", "rlspec acceptance", "heading of the summary")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rlspec summary: unexpected arguments %q\n", fs.Args())
		return 2
	}
	rep, err := junit.ReadFile(*path)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec summary: %v\n", err)
		return 2
	}
	writeSummary(stdout, *title, rep)
	return 0
}

// writeSummary writes the Markdown summary of rep.
func writeSummary(w io.Writer, title string, rep junit.Report) {
	type row struct{ mark, name, msg string }
	var bad, passed []row
	var nFail, nSkip int
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				nFail++
				bad = append(bad, row{"❌ failed", c.Name, c.Failure.Message})
			case c.Error != nil:
				nFail++
				bad = append(bad, row{"❌ error", c.Name, c.Error.Message})
			case c.Skipped != "":
				nSkip++
				bad = append(bad, row{"⚠️ skipped", c.Name, c.Skipped})
			default:
				passed = append(passed, row{"✅ passed", c.Name, ""})
			}
		}
	}
	total := len(bad) + len(passed)
	fmt.Fprintf(w, "### %s: %d passed, %d failed, %d skipped (%d scenarios)%s\n\n", cell(title), len(passed), nFail, nSkip, total, noService(rep))
	if len(bad) > 0 {
		fmt.Fprintln(w, "| result | scenario | why |")
		fmt.Fprintln(w, "| --- | --- | --- |")
		for _, r := range bad {
			fmt.Fprintf(w, "| %s | %s | %s |\n", r.mark, cell(r.name), cell(r.msg))
		}
		fmt.Fprintln(w)
	}
	if len(passed) > 0 {
		fmt.Fprintf(w, "<details><summary>%d passed</summary>\n\n", len(passed))
		for _, r := range passed {
			fmt.Fprintf(w, "- %s\n", cell(r.name))
		}
		fmt.Fprintln(w, "\n</details>")
	}
}

// noService is the heading's note when the run tested rlspec's own
// embedded reference (embedded.Pair's description names the suite), not
// a service: a gate must not read as green for a service it never asked.
func noService(rep junit.Report) string {
	for _, s := range rep.Suites {
		if strings.HasPrefix(s.Name, "rlspec acceptance: embedded reference (") {
			return " — no service was tested: the target was rlspec's own embedded reference"
		}
	}
	return ""
}

// cell makes s safe inside a Markdown table cell: one line, no pipes, no HTML.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}
