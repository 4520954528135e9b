package acceptance

import (
	"errors"
	"fmt"
	"strings"
)

// tagExpr is a parsed Cucumber tag expression: true when a scenario with
// the given tags is selected.
type tagExpr func(tags map[string]bool) bool

// parseTags parses TAGS. It takes Cucumber tag expressions (`@AC1 or @AC2`,
// `@AC3 and not @extended`, parentheses, `\` escaping a space or bracket in a
// tag) and, for the runs written for earlier versions, godog's own form
// (`@AC1,@AC2` for or, `&&` for and, `~@x` for not), recognised by those
// characters. An empty expression selects everything.
func parseTags(s string) (tagExpr, error) {
	if strings.TrimSpace(s) == "" {
		return func(map[string]bool) bool { return true }, nil
	}
	if strings.Contains(s, "&&") || strings.Contains(s, ",") || strings.Contains(s, "~") {
		return parseGodogTags(s)
	}
	toks, err := tagTokens(s)
	if err != nil {
		return nil, err
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

// parseGodogTags reads godog's form: and-groups separated by "&&", each a
// comma-separated list of tags, each optionally negated with "~".
func parseGodogTags(s string) (tagExpr, error) {
	var groups [][]tagExpr
	for _, group := range strings.Split(s, "&&") {
		var alts []tagExpr
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

// tagTokens splits a Cucumber tag expression into "(", ")", operators and
// tags; a backslash escapes the next character of a tag.
func tagTokens(s string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 >= len(s) {
				return nil, errors.New("a tag ends with a lone backslash")
			}
			i++
			cur.WriteByte(s[i])
		case ' ', '\t', '\n':
			flush()
		case '(', ')':
			flush()
			toks = append(toks, string(c))
		default:
			cur.WriteByte(c)
		}
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
func (p *tagParser) or() (tagExpr, error) {
	return p.binary("or", p.and, func(a, b bool) bool { return a || b })
}

// and := unary { "and" unary }
func (p *tagParser) and() (tagExpr, error) {
	return p.binary("and", p.unary, func(a, b bool) bool { return a && b })
}

// binary parses operands of next joined by the left-associative op.
func (p *tagParser) binary(op string, next func() (tagExpr, error), join func(a, b bool) bool) (tagExpr, error) {
	l, err := next()
	for err == nil && p.peek() == op {
		p.pos++
		var r tagExpr
		if r, err = next(); err == nil {
			a, b := l, r
			l = func(t map[string]bool) bool { return join(a(t), b(t)) }
		}
	}
	return l, err
}

// unary := "not" unary | "(" or ")" | tag
func (p *tagParser) unary() (tagExpr, error) {
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
		return func(t map[string]bool) bool { return !e(t) }, nil
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
	if !strings.HasPrefix(tok, "@") || len(tok) < 2 {
		return nil, fmt.Errorf("%q is not a tag (tags start with @; operators are and, or, not)", tok)
	}
	p.pos++
	return func(t map[string]bool) bool { return t[tok] }, nil
}
