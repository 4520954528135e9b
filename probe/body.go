package probe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/rlspec/rlspec/dialect"
)

// refusalBody is the LIMITED_BODY that fits a refusal's body: a JSON
// string that names the limit (at the shallowest pointer), else the
// phrase of a text body that names the limit, else an HTML page's title,
// else its first line as text, else none; the suggestion is checked against
// the body with package dialect before it is made.
func refusalBody(body []byte) (dialect.Body, string) {
	var doc any
	if json.Unmarshal(body, &doc) == nil {
		if p, v, ok := limitString(doc, ""); ok {
			b := dialect.JSONBody(p, v)
			if b.Check(body) == nil {
				return b, fmt.Sprintf("the refusal's JSON body holds %q at %s", v, p)
			}
		}
		return dialect.Body{Kind: dialect.BodyNone}, "the refusal's JSON body holds no string naming the limit"
	}
	if m := limitPhrase.Find(body); m != nil {
		b := dialect.Body{Kind: dialect.BodyText, Pattern: regexp.QuoteMeta(string(m))}
		if b.Check(body) == nil {
			return b, "the phrase of the refusal's text body that names the limit"
		}
	}
	if m := htmlTitle.FindSubmatch(body); m != nil {
		b := dialect.Body{Kind: dialect.BodyText, Pattern: regexp.QuoteMeta(string(m[1]))}
		if b.Check(body) == nil {
			return b, "the title of the refusal's HTML page"
		}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
	if line = strings.TrimSpace(line); line != "" {
		b := dialect.Body{Kind: dialect.BodyText, Pattern: regexp.QuoteMeta(line)}
		if b.Check(body) == nil {
			return b, "the refusal's text body"
		}
	}
	return dialect.Body{Kind: dialect.BodyNone}, "the refusal's body is empty"
}

// limitPhrase is the words of a text or HTML body that name the limit
// (nginx's and HAProxy's error pages, werkzeug's 429).
var limitPhrase = regexp.MustCompile(`(?i)too many requests|rate[ _-]?limit(ed|ing)?|throttled`)

// htmlTitle is an HTML page's title.
var htmlTitle = regexp.MustCompile(`(?i)<title>\s*([^<]*\S)\s*</title>`)

// limitString finds the shallowest string of doc whose value names a limit
// ("rate_limited", "RATE_LIMITED", "Too many requests"), preferring keys
// named code or error; the pointer is RFC 6901's.
func limitString(doc any, at string) (pointer, value string, ok bool) {
	m, isObj := doc.(map[string]any)
	if !isObj {
		return "", "", false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch strings.ToLower(k) {
		case "code":
			return 0
		case "error":
			return 1
		}
		return 2
	}
	sort.Slice(keys, func(i, j int) bool {
		if rank(keys[i]) != rank(keys[j]) {
			return rank(keys[i]) < rank(keys[j])
		}
		return keys[i] < keys[j]
	})
	esc := strings.NewReplacer("~", "~0", "/", "~1")
	for _, k := range keys {
		if v, isStr := m[k].(string); isStr && namesLimit(v) && !strings.ContainsAny(v, ",|") {
			return at + "/" + esc.Replace(k), v, true
		}
	}
	for _, k := range keys {
		if p, v, ok := limitString(m[k], at+"/"+esc.Replace(k)); ok {
			return p, v, true
		}
	}
	return "", "", false
}

func namesLimit(v string) bool {
	l := strings.NewReplacer("_", " ", "-", " ").Replace(strings.ToLower(v))
	return strings.Contains(l, "limit") || strings.Contains(l, "too many") || strings.Contains(l, "throttl")
}
