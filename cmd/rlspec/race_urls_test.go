package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
)

func TestRaceSettingsTargetURLs(t *testing.T) {
	cfg, err := raceSettings(nil, envflag.Map(map[string]string{"TARGET_URLS": " http://a:1, http://b:2 ,"}), nil)
	if err != nil || strings.Join(cfg.URLs, " ") != "http://a:1 http://b:2" {
		t.Fatalf("URLs = %q, err = %v", cfg.URLs, err)
	}
	for name, tc := range map[string]struct {
		env  map[string]string
		want string
	}{
		"bad":      {map[string]string{"TARGET_URLS": "http://a:1,localhost:2"}, `"localhost:2" is not an http(s) base URL`},
		"empty":    {map[string]string{"TARGET_URLS": " , "}, "names no URL"},
		"url":      {map[string]string{"TARGET_URLS": "http://a:1", "TARGET_URL": "http://b:2"}, "set one"},
		"replicas": {map[string]string{"TARGET_URLS": "http://a:1", "REPLICAS": "3"}, "REPLICAS starts instances"},
		"fault":    {map[string]string{"TARGET_URLS": "http://a:1", "FAULT": "process-cache"}, "unset TARGET_URLS"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := raceSettings(nil, envflag.Map(tc.env), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRaceTargetURLs: two instances on one SQLite file with a quota cache
// per process oversell across TARGET_URLS; two correct ones do not.
func TestRaceTargetURLs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault fault.Name
		want  int
	}{{fault.None, 0}, {fault.ProcessCache, 1}} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "shared.db")
			var urls []string
			for range 2 {
				urls = append(urls, faulttest.Start(t, tc.fault, func(cfg *fakeserver.Config) { cfg.Limit, cfg.DBPath = 3, db }))
			}
			env := map[string]string{"REPORT_DIR": t.TempDir(), "TARGET_URLS": strings.Join(urls, ","), "RL_LIMIT": "3",
				"CHECKS": "40", "REPEAT": "1", "SHRINK_TIME": "1s"}
			if code, stdout, stderr := runIn(t, 2*time.Minute, "", env, "race"); code != tc.want {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.want, stdout, stderr)
			}
		})
	}
}
