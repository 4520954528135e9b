package pgtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// Pgbench runs script, prepared, with the pgbench at path from clients
// clients (a thread each), each running it per times, in dir; args follow
// (the DSN last). It returns pgbench's tps; tb fails on any error.
func Pgbench(tb testing.TB, path, dir, script string, clients, per int, args ...string) float64 {
	tb.Helper()
	file := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(path, append([]string{"-n", "-M", "prepared", "-f", file, "-c", strconv.Itoa(clients), "-j", strconv.Itoa(clients),
		"-t", strconv.Itoa(per)}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("pgbench: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`tps = ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		tb.Fatalf("no tps in pgbench output:\n%s", out)
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	return tps
}
