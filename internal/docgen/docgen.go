// Package docgen writes the tables of the project's documents from the
// registries (profiles, clauses, scenarios, faults, packages), between
// markers in the Markdown.
//
//	<!-- gen:faults -->
//	…generated…
//	<!-- /gen:faults -->
//
// `go generate ./docs` rewrites them; TestDocsAreCurrent fails when a
// committed copy is stale, so a table cannot drift from the code.
package docgen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Files are the documents with generated regions, relative to the
// module's root.
// ScreenshotDigestFile records the report layout (acceptance.ReportLayoutDigest)
// docs/report.png was taken of: make screenshot writes it, and a test in
// package docs fails when the layout has changed since.
const ScreenshotDigestFile = "docs/report.png.digest"

var Files = []string{"README.md", "docs/profiles.md", "docs/dialects.md", "docs/ARCHITECTURE.md", "fakeserver/README.md"}

// marker finds a region: its name, then everything up to its end marker.
var marker = regexp.MustCompile(`(?s)<!-- gen:([a-z0-9:-]+) -->(.*?)<!-- /gen:([a-z0-9:-]+) -->`)

// Rewrite replaces each region of doc with what gen makes of its name; a
// region without a generator, or with mismatched markers, is an error.
func Rewrite(doc string, gen func(name string) (string, bool)) (string, error) {
	var err error
	out := marker.ReplaceAllStringFunc(doc, func(m string) string {
		sub := marker.FindStringSubmatch(m)
		if sub[1] != sub[3] {
			err = fmt.Errorf("region %s ends as %s", sub[1], sub[3])
			return m
		}
		body, ok := gen(sub[1])
		if !ok {
			err = fmt.Errorf("no generator for region %s", sub[1])
			return m
		}
		if strings.Contains(sub[2], "\n") { // a block: the table on lines of its own
			body = "\n" + strings.TrimSuffix(body, "\n") + "\n"
		}
		return "<!-- gen:" + sub[1] + " -->" + body + "<!-- /gen:" + sub[1] + " -->"
	})
	return out, err
}

// Generate returns each document of Files under root with its regions
// made anew.
func Generate(root string) (map[string]string, error) {
	tables, err := newTables(root)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range Files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		doc, err := Rewrite(string(b), tables.region)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[f] = doc
	}
	return out, nil
}

// Stale lists the documents under root whose committed text differs from
// what Generate makes.
func Stale(root string) ([]string, error) {
	docs, err := Generate(root)
	if err != nil {
		return nil, err
	}
	var stale []string
	for f, want := range docs {
		got, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		if string(got) != want {
			stale = append(stale, f)
		}
	}
	sort.Strings(stale)
	return stale, nil
}
