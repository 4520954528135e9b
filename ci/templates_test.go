package ci

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var releaseTag = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// TestTemplatesPinAReleaseTag: the CI templates gate on a pinned release
// tag and never clone rlspec (`git clone --branch` refuses a commit id).
func TestTemplatesPinAReleaseTag(t *testing.T) {
	gh := readTemplate(t, "github/rlspec.yml")
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(gh), &wf); err != nil {
		t.Fatalf("github template: %v", err)
	}
	if _, ok := wf.Permissions["checks"]; ok {
		t.Error("github template asks for checks permission; fork pull requests do not get it")
	}
	var pinned int
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if ref, ok := strings.CutPrefix(s.Uses, "rlspec/rlspec@"); ok {
				pinned++
				if !releaseTag.MatchString(ref) {
					t.Errorf("github template uses rlspec/rlspec@%s, want a release tag", ref)
				}
			}
			if v, ok := s.Env["RLSPEC_VERSION"]; ok && !releaseTag.MatchString(v) {
				t.Errorf("github template RLSPEC_VERSION %q, want a release tag", v)
			}
		}
	}
	if pinned == 0 {
		t.Error("github template does not use the rlspec action")
	}

	gl := readTemplate(t, "gitlab/rlspec.gitlab-ci.yml")
	var jobs map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
	}
	if err := yaml.Unmarshal([]byte(gl), &jobs); err != nil {
		t.Fatalf("gitlab template: %v", err)
	}
	job, ok := jobs[".rlspec"]
	if !ok {
		t.Fatal("gitlab template has no .rlspec job to extend")
	}
	if v := job.Variables["RLSPEC_VERSION"]; !releaseTag.MatchString(v) {
		t.Errorf("gitlab template RLSPEC_VERSION %q, want a release tag", v)
	}
	if s := strings.Join(job.Script, "\n"); !strings.Contains(s, "cmd/rlspec@${RLSPEC_VERSION}") || !strings.Contains(s, "rlspec acceptance") {
		t.Errorf("gitlab template script:\n%s", s)
	}
	for name, text := range map[string]string{"github": gh, "gitlab": gl, "action": readTemplate(t, "../action.yml")} {
		if strings.Contains(text, "git clone") || strings.Contains(text, "--branch") {
			t.Errorf("%s template clones rlspec; pin a release tag instead", name)
		}
	}
}

func readTemplate(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
