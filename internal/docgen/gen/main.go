// Command gen rewrites the generated tables of the project's documents
// (package docgen): go generate ./docs.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/internal/docgen"
)

func main() {
	root := flag.String("root", ".", "the module's root")
	screenshot := flag.Bool("screenshot", false, "only record the report layout docs/report.png was just taken of (make screenshot)")
	flag.Parse()
	if *screenshot {
		if err := os.WriteFile(filepath.Join(*root, docgen.ScreenshotDigestFile), []byte(acceptance.ReportLayoutDigest()+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "docgen:", err)
			os.Exit(1)
		}
		return
	}
	docs, err := docgen.Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
	for f, text := range docs {
		if err := os.WriteFile(filepath.Join(*root, f), []byte(text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "docgen:", err)
			os.Exit(1)
		}
	}
}
