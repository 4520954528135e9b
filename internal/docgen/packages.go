package docgen

import (
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// module is the module path the packages' imports are read against.
const module = "github.com/rlspec/rlspec"

// external are the dependencies worth naming in the "consumes" column, by
// import path prefix.
var external = []struct{ prefix, name string }{
	{"github.com/cucumber/godog", "godog"},
	{"github.com/jackc/pgx", "pgx"},
	{"modernc.org/sqlite", "modernc.org/sqlite"},
	{"pgregory.net/rapid", "rapid"},
	{"github.com/anishathalye/porcupine", "porcupine"},
	{"github.com/testcontainers/testcontainers-go", "testcontainers-go"},
	{"github.com/HdrHistogram/hdrhistogram-go", "hdrhistogram-go"},
	{"github.com/dunglas/httpsfv", "httpsfv"},
}

// skipDir are folders that hold no package of the module.
func skipDir(name string) bool {
	return name == "testdata" || name == "bin" || name == "dist" || name == "reports" || strings.HasPrefix(name, ".")
}

// packages is the table of the module's packages: each one's synopsis
// (the first sentence of its package comment) and what it imports of the
// module and of the notable dependencies, its non-test files only.
func packages(root string) (string, error) {
	var b strings.Builder
	b.WriteString("| package | what it is | consumes |\n| --- | --- | --- |\n")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (skipDir(d.Name()) || isModule(path)) {
			return filepath.SkipDir
		}
		row, ok, err := packageRow(root, path)
		if err != nil {
			return err
		}
		if ok {
			b.WriteString(row)
		}
		return nil
	})
	return b.String(), err
}

// isModule reports whether dir has a go.mod of its own: a module apart
// (interop's Go targets), none of whose packages are this module's.
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// packageRow is dir's row, ok false when dir holds no non-test Go file.
func packageRow(root, dir string) (string, bool, error) {
	fset := token.NewFileSet()
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", false, err
	}
	var synopsis string
	uses := map[string]bool{}
	n := 0
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.ParseComments|parser.ImportsOnly)
		if err != nil {
			return "", false, fmt.Errorf("parse %s: %w", m, err)
		}
		n++
		if f.Doc != nil && synopsis == "" {
			synopsis = new(doc.Package).Synopsis(f.Doc.Text())
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rel, ok := strings.CutPrefix(p, module+"/"); ok {
				uses["`"+rel+"`"] = true
				continue
			}
			for _, e := range external {
				if strings.HasPrefix(p, e.prefix) {
					uses[e.name] = true
				}
			}
		}
	}
	if n == 0 {
		return "", false, nil
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return "", false, err
	}
	var list []string
	for u := range uses {
		list = append(list, u)
	}
	slices.Sort(list)
	return fmt.Sprintf("| `%s` | %s | %s |\n", filepath.ToSlash(rel), orDash(cell(synopsis)), orDash(strings.Join(list, ", "))), true, nil
}
