package service

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
)

// knownOfAcceptance are the names the contract's flags look up.
func knownNames(t *testing.T) []string {
	t.Helper()
	rec := envflag.Record(func(string) (string, bool) { return "", false })
	c := DefaultConfig()
	c.RegisterFlags(flag.NewFlagSet("x", flag.ContinueOnError), rec.Lookup)
	return append(rec.Names(), "TAGS")
}

func TestUnknownSettingsNameTheNearest(t *testing.T) {
	known := knownNames(t)
	for _, want := range []string{"TARGET_URL", "RL_LIMIT", "TARGET_HEADERS", "PROFILE", "CLIENT_IPS", "TARGET_URL_PENALTIES"} {
		if !slices.Contains(known, want) {
			t.Fatalf("the flags did not look %s up: %v", want, known)
		}
	}
	env := []string{"TARGET_ULR=http://x", "TAG=@AC1", "PROFLE=prd", "RL_LIMT=5", "TARGET_PORT=8080",
		"TARGET_URL=http://y", "HOME=/root", "PATH=/bin", "USER=me", "TERM=xterm", "LANG=C", "SHELL=/bin/sh", "GITHUB_ACTIONS=true"}
	got := envflag.Unknown(env, known, "rlspec acceptance")
	want := []string{
		"PROFLE is not a setting of rlspec acceptance; did you mean PROFILE?",
		"RL_LIMT is not a setting of rlspec acceptance; did you mean RL_LIMIT?",
		"TAG is not a setting of rlspec acceptance; did you mean TAGS?",
		"TARGET_PORT is not a setting of rlspec acceptance; it is ignored",
		"TARGET_ULR is not a setting of rlspec acceptance; did you mean TARGET_URL?",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestChooseEmbedded(t *testing.T) {
	for _, tc := range []struct {
		name              string
		url               string
		urlSet, other, ci bool
		embedded          bool
		err               string
	}{
		{"nothing, not CI", "", false, false, false, true, ""},
		{"nothing, CI", "", false, false, true, false, "CI=true and no TARGET_URL"},
		{"asked for in CI", "embedded", true, false, true, true, ""},
		{"set but empty", "", true, false, false, false, "TARGET_URL is set but empty"},
		{"a service", "http://h:1", true, false, true, false, ""},
		{"an image in CI", "", false, true, true, false, ""},
		{"embedded and an image", "embedded", true, true, false, false, "unset TARGET_URLS, TARGET_IMAGE"},
	} {
		c := DefaultConfig()
		c.URL = tc.url
		emb, err := c.ChooseEmbedded(tc.urlSet, tc.other, tc.ci)
		if emb != tc.embedded || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: embedded %v, err %v; want %v, %q", tc.name, emb, err, tc.embedded, tc.err)
		}
		if emb && c.URL != "" {
			t.Errorf("%s: URL %q left set", tc.name, c.URL)
		}
	}
}
