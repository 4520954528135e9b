package fault_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
)

// Every Name constant declared in package fault's files and its designs'
// packages (fault/<design>/names.go) is a registered fault: a new fault's
// file cannot be forgotten in fault/faults/registry.go.
func TestEveryDeclaredFaultIsRegistered(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	designs, err := filepath.Glob("*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, designs...)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	registered := map[fault.Name]bool{}
	for _, f := range faults.All() {
		registered[f.Name] = true
	}
	declared := 0
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type == nil || len(vs.Values) != 1 {
				return true
			}
			switch typ := vs.Type.(type) {
			case *ast.Ident: // in package fault
				if typ.Name != "Name" {
					return true
				}
			case *ast.SelectorExpr: // fault.Name, in a design's package
				if x, ok := typ.X.(*ast.Ident); !ok || x.Name != "fault" || typ.Sel.Name != "Name" {
					return true
				}
			default:
				return true
			}
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok {
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			if name == "" {
				return true // None
			}
			declared++
			if !registered[fault.Name(name)] {
				t.Errorf("%s: fault %q is declared but not listed in fault/faults/registry.go", fset.Position(vs.Pos()), name)
			}
			return true
		})
	}
	if declared != len(faults.All()) {
		t.Errorf("%d fault names declared, %d registered", declared, len(faults.All()))
	}
}
