// Command gen rewrites the generated tables of the project's documents
// (package docgen): go generate ./docs.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlspec/rlspec/internal/docgen"
)

func main() {
	root := flag.String("root", ".", "the module's root")
	flag.Parse()
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
