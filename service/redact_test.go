package service

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

func TestCurlRefersToCredentialVariables(t *testing.T) {
	ex := &Exchange{Method: "POST", URL: "http://x/v1", Header: http.Header{
		"Authorization": {"Bearer s3cr3t"}, "X-Api-Key": {"k3y"}, "X-Trace": {`it's $HOME`},
	}}
	got := ex.Curl()
	if strings.Contains(got, "s3cr3t") || strings.Contains(got, "k3y") {
		t.Fatalf("curl shows a credential: %s", got)
	}
	for _, want := range []string{`-H "Authorization: $RLSPEC_HEADER_AUTHORIZATION"`, `-H "X-Api-Key: $RLSPEC_HEADER_X_API_KEY"`, `-H 'X-Trace: it'\''s $HOME'`} {
		if !strings.Contains(got, want) {
			t.Errorf("curl lacks %s: %s", want, got)
		}
	}
}

// TestRedactedHeadersInShell: the shell turns the redacted form back into
// the headers, credentials taken from their variables.
func TestRedactedHeadersInShell(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer s3cr3t"}, "X-Trace": {"a\"b$c`d\\e"}}
	word := RedactedHeaders(h)
	if strings.Contains(word, "s3cr3t") {
		t.Fatalf("shows a credential: %s", word)
	}
	out, err := exec.Command("sh", "-c", "RLSPEC_HEADER_AUTHORIZATION='Bearer s3cr3t'; printf %s "+word).Output()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseHeaders(string(out))
	if err != nil {
		t.Fatal(err)
	}
	if back.Get("Authorization") != "Bearer s3cr3t" || back.Get("X-Trace") != "a\"b$c`d\\e" {
		t.Errorf("shell gave %q", out)
	}
	if got := CredentialNote(h); !strings.Contains(got, "RLSPEC_HEADER_AUTHORIZATION") {
		t.Errorf("note %q", got)
	}
}
