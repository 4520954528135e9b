// Package redact keeps credentials out of what rlspec prints: it tells a
// credential header by its name (IsCredential), writes headers and URLs for
// shell commands with each credential a reference to an environment
// variable (Header, Headers, CurlURL), and masks them in URLs, database
// URLs and errors (URL, DSN, URLError).
package redact

import (
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// IsCredential reports whether a header carries a credential whose value
// rlspec must never write out: Authorization, Proxy-Authorization, Cookie,
// and any name with token, secret, key, auth, password, session or
// signature in it (X-Api-Key, X-Auth-Token), except Idempotency-Key, which
// rlspec makes up itself.
func IsCredential(name string) bool {
	n := strings.ToLower(name)
	if n == "idempotency-key" {
		return false
	}
	switch n {
	case "cookie", "set-cookie":
		return true
	}
	for _, w := range []string{"auth", "token", "secret", "key", "password", "passwd", "session", "signature", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// CredentialVar is the environment variable a printed command refers to in
// place of a credential header's value: RLSPEC_HEADER_AUTHORIZATION for
// Authorization, RLSPEC_HEADER_X_API_KEY for X-Api-Key.
func CredentialVar(name string) string {
	b := []byte("RLSPEC_HEADER_" + strings.ToUpper(name))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// Header is one header line for a shell command, double-quoted: a
// credential's value is a reference to its CredentialVar, any other value
// is escaped so the shell keeps it as written.
func Header(name, value string) string {
	if IsCredential(name) {
		return `"` + dquote(name) + `: $` + CredentialVar(name) + `"`
	}
	return `"` + dquote(name+": "+value) + `"`
}

// Headers renders h as TARGET_HEADERS would be written, in one
// double-quoted shell word, credentials as references to their variables.
func Headers(h http.Header) string {
	var parts []string
	for _, k := range sortedKeys(h) {
		for _, v := range h[k] {
			r := Header(k, v)
			parts = append(parts, r[1:len(r)-1])
		}
	}
	return `"` + strings.Join(parts, ";") + `"`
}

// CredentialVars lists the variables the redacted headers of h refer to.
func CredentialVars(h http.Header) []string {
	var vars []string
	for _, k := range sortedKeys(h) {
		if IsCredential(k) {
			vars = append(vars, CredentialVar(k))
		}
	}
	return vars
}

// CredentialNote is one sentence telling the user which variables to set
// before pasting a printed command, or "" when h carries no credential.
func CredentialNote(h http.Header) string {
	vars := CredentialVars(h)
	if len(vars) == 0 {
		return ""
	}
	return "credentials are not shown: export " + strings.Join(vars, ", ") + " with their values from TARGET_HEADERS before running the commands"
}

// ShellQuote is s as one single-quoted shell word.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// dquote escapes what the shell expands inside double quotes.
func dquote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
}

// DSN returns a database URL with its password (user info or a
// password query parameter) replaced by xxxxx, for output; an unparsable
// URL that may hold one is withheld.
func DSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		if strings.Contains(dsn, "@") || strings.Contains(strings.ToLower(dsn), "password") {
			return "(unparsable database URL withheld)"
		}
		return dsn
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "password") {
			q.Set(k, "xxxxx")
			u.RawQuery = q.Encode()
		}
	}
	return u.Redacted()
}

// Masked stands for a credential in a URL rlspec writes out.
const Masked = "xxxxx"

// URL returns u for output with its credentials masked: the
// password of its user info (the user name too when it is alone:
// https://TOKEN@host), and the value of every query parameter whose name
// is a credential's (IsCredential: token, api_key, signature, …). An
// unparsable URL holding '@' or '?' is withheld.
func URL(u string) string {
	return redactURL(u, func(string) string { return Masked })
}

// URLVar is the environment variable a printed command refers to in place
// of a URL's credential part: RLSPEC_URL_PASSWORD, RLSPEC_URL_USER, or
// RLSPEC_QUERY_<NAME> for a query parameter.
func URLVar(part string) string { return "RLSPEC_" + CredentialVar(part)[len("RLSPEC_HEADER_"):] }

// CurlURL is u as one shell word for a printed command: single-quoted
// when it carries no credential, otherwise double-quoted with each
// credential a reference to its URLVar variable.
func CurlURL(u string) string {
	s := redactURL(u, func(part string) string { return "\x00" + part + "\x00" })
	if s == u {
		return ShellQuote(u)
	}
	parts := strings.Split(dquote(s), "\x00")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = "${" + URLVar(parts[i]) + "}"
	}
	return `"` + strings.Join(parts, "") + `"`
}

// URLCredentialNote is one sentence naming the variables CurlURL's
// commands refer to for u, or "" when u carries no credential.
func URLCredentialNote(u string) string {
	var vars []string
	redactURL(u, func(part string) string {
		vars = append(vars, URLVar(part))
		return Masked
	})
	if len(vars) == 0 {
		return ""
	}
	return "the target URL's credentials are not shown: export " + strings.Join(vars, ", ") + " with their values before running the commands"
}

// redactURL replaces each credential part of u with mask(part), part being
// "RLSPEC_URL_USER", "RLSPEC_URL_PASSWORD" or "RLSPEC_QUERY_<name>"; the
// rest of u is kept as written.
func redactURL(u string, mask func(part string) string) string {
	p, err := url.Parse(u)
	if err != nil {
		if strings.ContainsAny(u, "@?") {
			return "(unparsable URL withheld)"
		}
		return u
	}
	out := u
	if p.User != nil {
		scheme, rest, _ := strings.Cut(out, "//")
		info, host, _ := strings.Cut(rest, "@")
		if user, _, ok := strings.Cut(info, ":"); ok {
			info = user + ":" + mask("URL_PASSWORD")
		} else {
			info = mask("URL_USER")
		}
		out = scheme + "//" + info + "@" + host
	}
	if p.RawQuery == "" {
		return out
	}
	base, query, _ := strings.Cut(out, "?")
	query, frag, hasFrag := strings.Cut(query, "#")
	params := strings.Split(query, "&")
	for i, kv := range params {
		name, _, _ := strings.Cut(kv, "=")
		if n, err := url.QueryUnescape(name); err == nil && IsCredential(n) {
			params[i] = name + "=" + mask("QUERY_"+n)
		}
	}
	out = base + "?" + strings.Join(params, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// URLError masks the credentials of the URL an *url.Error (what
// net/http's client returns) names, in place, and returns err.
func URLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = URL(ue.URL)
	}
	return err
}
