package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// runCLI runs the acceptance subcommand with env set, failing the test if it
// does not return within limit.
func runCLI(t *testing.T, limit time.Duration, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- runAcceptance(context.Background(), args, &stdout, &stderr) }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case code := <-done:
		return code, stdout.String(), stderr.String()
	case <-timer.C:
		t.Fatalf("rlspec acceptance did not return within %s", limit)
		return 0, "", ""
	}
}

func TestAcceptanceClosedPortExits2(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	code, _, stderr := runCLI(t, 5*time.Second, map[string]string{"TARGET_URL": url, "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "cannot be reached") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAcceptanceSilentTargetExits2(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c // held open, never answered
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(conns) > 0 {
			(<-conns).Close()
		}
	})
	code, _, stderr := runCLI(t, 60*time.Second, map[string]string{"TARGET_URL": "http://" + ln.Addr().String(), "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "no HTTP answer") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAcceptanceExitStatus(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want int
	}{
		{"reference passes", map[string]string{"TAGS": "@AC1,@AC3", "REPORT_DIR": dir}, nil, 0},
		{"fault fails", map[string]string{"TAGS": "@AC3", "REPORT_DIR": dir}, []string{"-fault", "no-retry-after"}, 1},
		{"no scenario", map[string]string{"TAGS": "@nothing", "REPORT_DIR": dir}, nil, 2},
		{"bad setting", map[string]string{"RL_LIMIT": "many", "REPORT_DIR": dir}, nil, 2},
		{"unknown fault", map[string]string{"REPORT_DIR": dir}, []string{"-fault=nope"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, 60*time.Second, tc.env, tc.args...)
			if code != tc.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.want, stdout, stderr)
			}
		})
	}
}
