package docgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A time assumption is recorded where a step calls Assume(what, check)
// (steps/scenario/assume.go); its verdict is then proved after the fact.
// assumptionIndex finds, without running anything, which assumptions each
// step may record: the step's function, and every function of the step
// sets it may call by name, searched for Assume's first argument.

// stepFunc is one step's pattern and the function it runs.
type stepFunc struct {
	pattern *regexp.Regexp
	node    funcKey
}

// funcKey names a function of the step sets: its package directory and
// name (receivers are not told apart; a union is safe for a listing).
type funcKey struct{ pkg, name string }

// stepIndex is the step sets' call graph by name and what each function
// assumes itself.
type stepIndex struct {
	calls   map[funcKey][]string // names called
	assumes map[funcKey][]string // Assume's what, as written
	defined map[string][]string  // name → packages defining it
	steps   []stepFunc
	// unread are the Assume calls whose what could not be read, by
	// position: each must be a string literal or a Sprintf'd variable.
	unread []string
}

// assumptionIndex parses the non-test Go files under root/steps.
func assumptionIndex(root string) (*stepIndex, error) {
	ix := &stepIndex{calls: map[funcKey][]string{}, assumes: map[funcKey][]string{}, defined: map[string][]string{}}
	fset := token.NewFileSet()
	dir := filepath.Join(root, "steps")
	anon := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return fmt.Errorf("parse %s: %w", path, err)
		}
		pkg := filepath.Dir(path)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			k := funcKey{pkg, fd.Name.Name}
			ix.defined[k.name] = append(ix.defined[k.name], pkg)
			ix.scan(fset, k, fd.Body)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || calleeName(call) != "Step" || len(call.Args) != 2 {
					return true
				}
				pat, ok := stringLit(call.Args[0])
				if !ok {
					return true
				}
				re, err := regexp.Compile(pat)
				if err != nil {
					return true
				}
				var node funcKey
				switch fn := call.Args[1].(type) {
				case *ast.FuncLit:
					anon++
					node = funcKey{pkg, fmt.Sprintf("func#%d", anon)}
					ix.scan(fset, node, fn.Body)
				default:
					node = funcKey{pkg, calleeNameOf(fn)}
				}
				ix.steps = append(ix.steps, stepFunc{re, node})
				return true
			})
		}
		return nil
	})
	return ix, err
}

// scan records what body assumes and calls under k.
func (ix *stepIndex) scan(fset *token.FileSet, k funcKey, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := calleeName(call)
		if name == "Assume" && len(call.Args) == 2 {
			if what, ok := assumedWhat(body, call.Args[0]); ok {
				ix.assumes[k] = append(ix.assumes[k], what)
			} else {
				ix.unread = append(ix.unread, fset.Position(call.Pos()).String())
			}
		}
		if name != "" {
			ix.calls[k] = append(ix.calls[k], name)
		}
		return true
	})
}

// assumedWhat is Assume's first argument: a string literal, or a variable
// set from fmt.Sprintf's format (its verbs written "…").
func assumedWhat(body *ast.BlockStmt, arg ast.Expr) (string, bool) {
	if s, ok := stringLit(arg); ok {
		return s, true
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return "", false
	}
	var what string
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		if lhs, ok := as.Lhs[0].(*ast.Ident); ok && lhs.Name == id.Name {
			if call, ok := as.Rhs[0].(*ast.CallExpr); ok && len(call.Args) > 0 {
				if format, ok := stringLit(call.Args[0]); ok {
					what = verb.ReplaceAllString(format, "…")
				}
			}
		}
		return true
	})
	return what, what != ""
}

var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// reach is every assumption k may record, through the functions it calls:
// of its own package first, else of every step package defining the name.
func (ix *stepIndex) reach(k funcKey, seen map[funcKey]bool, out map[string]bool) {
	if seen[k] {
		return
	}
	seen[k] = true
	for _, w := range ix.assumes[k] {
		out[w] = true
	}
	for _, name := range ix.calls[k] {
		pkgs := ix.defined[name]
		if slices.Contains(pkgs, k.pkg) {
			pkgs = []string{k.pkg}
		}
		for _, p := range pkgs {
			ix.reach(funcKey{p, name}, seen, out)
		}
	}
}

// assumptionsOf are the assumptions the steps with these texts may
// record, sorted; a text no step matches is reported.
func (ix *stepIndex) assumptionsOf(texts []string) ([]string, error) {
	out := map[string]bool{}
	for _, text := range texts {
		matched := false
		for _, st := range ix.steps {
			if st.pattern.MatchString(text) {
				matched = true
				ix.reach(st.node, map[funcKey]bool{}, out)
			}
		}
		if !matched {
			return nil, fmt.Errorf("no step matches %q", text)
		}
	}
	var ws []string
	for w := range out {
		if w != OnEveryRequest {
			ws = append(ws, w)
		}
	}
	slices.Sort(ws)
	return ws, nil
}

// OnEveryRequest is the assumption any request of any scenario may record
// (package scenario's sending: a request given up on at its deadline). The
// table leaves it out of every row, and docs/profiles.md names it once.
const OnEveryRequest = "rlspec ran when an unanswered request's deadline came"

// calleeName is the name a call calls: f(…) or x.f(…).
func calleeName(call *ast.CallExpr) string { return calleeNameOf(call.Fun) }

func calleeNameOf(e ast.Expr) string {
	switch fn := e.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		return fn.Sel.Name
	case *ast.IndexExpr: // a generic function's instance
		return calleeNameOf(fn.X)
	}
	return ""
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// assumptions is the table of each scenario's time assumptions.
func (t *tables) assumptions() string {
	ix, err := assumptionIndex(t.root)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	b.WriteString("| scenario | the time assumptions its verdict may rest on |\n| --- | --- |\n")
	for _, s := range t.scenarios {
		ws, err := ix.assumptionsOf(s.Steps)
		if err != nil {
			return fmt.Sprintf("error: %s: %v", s.ID, err)
		}
		cellText := "— (rests on no timing)"
		if len(ws) > 0 {
			cellText = strings.Join(ws, "; ")
		}
		fmt.Fprintf(&b, "| %s | %s |\n", s.ID, cell(cellText))
	}
	return b.String()
}
