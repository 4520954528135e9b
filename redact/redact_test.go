package redact

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

func TestIsCredential(t *testing.T) {
	for name, want := range map[string]bool{
		"Authorization": true, "proxy-authorization": true, "Cookie": true, "X-Api-Key": true,
		"X-Auth-Token": true, "X-Client-Secret": true, "Api-Key": true, "X-Session-Id": true,
		"Idempotency-Key": false, "Content-Type": false, "X-Forwarded-For": false, "X-Trace": false,
	} {
		if got := IsCredential(name); got != want {
			t.Errorf("IsCredential(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestRedactedHeadersInShell: the shell turns the redacted form back into
// the headers, credentials taken from their variables.
func TestRedactedHeadersInShell(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer s3cr3t"}, "X-Trace": {"a\"b$c`d\\e"}}
	word := Headers(h)
	if strings.Contains(word, "s3cr3t") {
		t.Fatalf("shows a credential: %s", word)
	}
	out, err := exec.Command("sh", "-c", "RLSPEC_HEADER_AUTHORIZATION='Bearer s3cr3t'; printf %s "+word).Output()
	if err != nil {
		t.Fatal(err)
	}
	back := http.Header{}
	for _, line := range strings.Split(string(out), ";") {
		name, value, _ := strings.Cut(line, ":")
		back.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if back.Get("Authorization") != "Bearer s3cr3t" || back.Get("X-Trace") != "a\"b$c`d\\e" {
		t.Errorf("shell gave %q", out)
	}
	if got := CredentialNote(h); !strings.Contains(got, "RLSPEC_HEADER_AUTHORIZATION") {
		t.Errorf("note %q", got)
	}
}

func TestRedactDSN(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secretpw@db/app":        "postgres://u:xxxxx@db/app",
		"postgres://db/app?password=secretpw": "postgres://db/app?password=xxxxx",
		"postgres://u@db/app":                 "postgres://u@db/app",
		"sqlite:/tmp/x.db":                    "sqlite:/tmp/x.db",
		"postgres://u:secretpw@[bad/db":       "(unparsable database URL withheld)",
	} {
		if got := DSN(in); got != want {
			t.Errorf("DSN(%q) = %q, want %q", in, got, want)
		}
	}
}
