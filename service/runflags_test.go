package service

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
)

// The run-setting helpers read the environment as the default, let the flag
// win, and report a malformed environment value through envflag.Errors.
func TestRunFlags(t *testing.T) {
	getenv := envflag.Map(map[string]string{"REPORT_DIR": "/tmp/r", "TARGET_IMAGE": "img:1", "MAX_WAIT": "3", "STRICT": "1"})
	var (
		dir, image string
		wait       = DefaultMaxWait
		strict     bool
	)
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	ReportDirVar(fs, getenv, &dir)
	ImageVar(fs, getenv, &image)
	MaxWaitVar(fs, getenv, &wait)
	envflag.BoolVar(fs, getenv, &strict, "strict", "STRICT", "skips fail")
	if err := fs.Parse([]string{"-max-wait", "5s"}); err != nil {
		t.Fatal(err)
	}
	if err := envflag.Errors(fs); err != nil {
		t.Fatal(err)
	}
	if dir != "/tmp/r" || image != "img:1" || wait != 5*time.Second || !strict {
		t.Fatalf("dir %q image %q wait %s strict %v", dir, image, wait, strict)
	}

	getenv = envflag.Map(map[string]string{"STRICT": "maybe", "MAX_WAIT": "soon"})
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	envflag.BoolVar(fs, getenv, &strict, "strict", "STRICT", "skips fail")
	MaxWaitVar(fs, getenv, &wait)
	_ = fs.Parse(nil)
	if err := envflag.Errors(fs); err == nil || !strings.Contains(err.Error(), "STRICT") || !strings.Contains(err.Error(), "MAX_WAIT") {
		t.Fatalf("err = %v, want STRICT and MAX_WAIT named", err)
	}
}

func TestRunChecks(t *testing.T) {
	if err := CheckImage(Config{URL: "http://a"}, "img"); err == nil || !strings.Contains(err.Error(), "TARGET_IMAGE") {
		t.Fatalf("URL and image: %v", err)
	}
	if err := CheckImage(Config{}, "img"); err != nil {
		t.Fatal(err)
	}
	if err := CheckMaxWait(-time.Second); err == nil || !strings.Contains(err.Error(), "MAX_WAIT") {
		t.Fatalf("negative MAX_WAIT: %v", err)
	}
}
