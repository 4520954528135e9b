package tagexpr

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Expr is a parsed tag expression: true when a scenario with the given
// tags is selected.
type Expr func(tags map[string]bool) bool

// Parse parses TAGS. It takes Cucumber tag expressions (`@AC1 or @AC2`,
// `@AC3 and not @extended`, parentheses, `\` escaping a space, a bracket or
// a backslash in a tag) and, for the runs written for earlier versions,
// godog's own form (`@AC1,@AC2` for or, `&&` for and, `~@x` for not),
// recognised by those characters. An empty expression selects everything.
//
// Cucumber's own Go implementation (github.com/cucumber/tag-expressions/go)
// is not served by the module proxy, so the grammar is implemented here
// (parseTagExpression) and checked against Cucumber's published cases
// (cucumber_test.go). One rule is rlspec's: every tag starts with @,
// as every tag of the feature files does, so that TAGS=AC1 is an error
// instead of a filter that selects nothing.
func Parse(s string) (Expr, error) {
	if strings.TrimSpace(s) == "" {
		return func(map[string]bool) bool { return true }, nil
	}
	if strings.Contains(s, "&&") || strings.Contains(s, ",") || strings.Contains(s, "~") {
		return parseGodogTags(s)
	}
	e, err := parseTagExpression(s)
	if err != nil {
		return nil, err
	}
	if err := atTags(e); err != nil {
		return nil, err
	}
	return e.eval, nil
}

// parseGodogTags reads godog's form: and-groups separated by "&&", each a
// comma-separated list of tags, each optionally negated with "~".
func parseGodogTags(s string) (Expr, error) {
	var groups [][]Expr
	for _, group := range strings.Split(s, "&&") {
		var alts []Expr
		for _, atom := range strings.Split(group, ",") {
			atom = strings.TrimSpace(atom)
			if atom == "" {
				return nil, errors.New("&& or , has no tag on one side")
			}
			neg := strings.HasPrefix(atom, "~")
			name := strings.TrimPrefix(atom, "~")
			if !strings.HasPrefix(name, "@") || len(name) < 2 || strings.ContainsAny(name, " \t()~") {
				return nil, fmt.Errorf("%q is not a tag (each item between && and , is @name or ~@name)", atom)
			}
			alts = append(alts, func(tags map[string]bool) bool { return tags[name] != neg })
		}
		groups = append(groups, alts)
	}
	return func(tags map[string]bool) bool {
		for _, alts := range groups {
			ok := false
			for _, a := range alts {
				ok = ok || a(tags)
			}
			if !ok {
				return false
			}
		}
		return true
	}, nil
}

// tagNode is a node of a parsed Cucumber tag expression. String is
// Cucumber's canonical form ("( a and b )", "not ( a )"), which its
// published test cases compare.
type tagNode interface {
	eval(tags map[string]bool) bool
	String() string
}

type (
	tagAll struct{} // the empty expression: selects everything
	tagLit string
	tagNot struct{ x tagNode }
	tagBin struct {
		op   string // "and" or "or"
		l, r tagNode
	}
)

func (tagAll) eval(map[string]bool) bool     { return true }
func (tagAll) String() string                { return "" }
func (l tagLit) eval(t map[string]bool) bool { return t[string(l)] }
func (n tagNot) eval(t map[string]bool) bool { return !n.x.eval(t) }

func (b tagBin) eval(t map[string]bool) bool {
	if b.op == "and" {
		return b.l.eval(t) && b.r.eval(t)
	}
	return b.l.eval(t) || b.r.eval(t)
}

// String escapes what the tokenizer would split on.
func (l tagLit) String() string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`, " ", `\ `).Replace(string(l))
}

func (n tagNot) String() string {
	if _, bin := n.x.(tagBin); bin {
		return "not " + n.x.String() // already in brackets
	}
	return "not ( " + n.x.String() + " )"
}

func (b tagBin) String() string { return "( " + b.l.String() + " " + b.op + " " + b.r.String() + " )" }

// atTags checks that every tag of e starts with @.
func atTags(e tagNode) error {
	switch n := e.(type) {
	case tagLit:
		if !strings.HasPrefix(string(n), "@") || len(n) < 2 {
			return fmt.Errorf("%q is not a tag (tags start with @; operators are and, or, not)", string(n))
		}
	case tagNot:
		return atTags(n.x)
	case tagBin:
		if err := atTags(n.l); err != nil {
			return err
		}
		return atTags(n.r)
	}
	return nil
}

// parseTagExpression parses Cucumber's tag-expression grammar: "or" binds
// loosest, then "and", then "not"; both binary operators are left
// associative; any other word is a tag.
func parseTagExpression(s string) (tagNode, error) {
	toks, err := tagTokens(s)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return tagAll{}, nil
	}
	p := &tagParser{toks: toks}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q after a complete expression", p.toks[p.pos])
	}
	return e, nil
}

// tagTokens splits a Cucumber tag expression into "(", ")", operators and
// tags; a backslash makes the next character, a space, bracket or
// backslash, part of the tag.
func tagTokens(s string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			if c != '(' && c != ')' && c != '\\' && !unicode.IsSpace(c) {
				return nil, fmt.Errorf(`\%c is not an escape (a backslash escapes a space, (, ) or \)`, c)
			}
			cur.WriteRune(c)
			escaped = false
		case c == '\\':
			escaped = true
		case unicode.IsSpace(c):
			flush()
		case c == '(' || c == ')':
			flush()
			toks = append(toks, string(c))
		default:
			cur.WriteRune(c)
		}
	}
	if escaped {
		return nil, errors.New("a tag ends with a lone backslash")
	}
	flush()
	return toks, nil
}

type tagParser struct {
	toks []string
	pos  int
}

func (p *tagParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

// or := and { "or" and }
func (p *tagParser) or() (tagNode, error) { return p.binary("or", p.and) }

// and := unary { "and" unary }
func (p *tagParser) and() (tagNode, error) { return p.binary("and", p.unary) }

// binary parses operands of next joined by the left-associative op.
func (p *tagParser) binary(op string, next func() (tagNode, error)) (tagNode, error) {
	l, err := next()
	for err == nil && p.peek() == op {
		p.pos++
		var r tagNode
		if r, err = next(); err == nil {
			l = tagBin{op: op, l: l, r: r}
		}
	}
	return l, err
}

// unary := "not" unary | "(" or ")" | tag
func (p *tagParser) unary() (tagNode, error) {
	tok := p.peek()
	switch tok {
	case "":
		return nil, errors.New("the expression ends where a tag, not or ( is expected")
	case "not":
		p.pos++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return tagNot{e}, nil
	case "(":
		p.pos++
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errors.New("a ( is not closed")
		}
		p.pos++
		return e, nil
	case ")", "and", "or":
		return nil, fmt.Errorf("unexpected %q where a tag, not or ( is expected", tok)
	}
	p.pos++
	return tagLit(tok), nil
}
