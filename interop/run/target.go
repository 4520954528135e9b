// Command run is rlspec's interop matrix (make interop): it starts each real
// rate limiter under interop/ (one folder per limiter, one sub-folder per
// configuration with its target.env and expected.md), runs rlspec
// acceptance and a short rlspec race against it, compares every verdict
// with the expectation read from the limiter's source, and writes
// docs/interop.md. Exit 0 when every verdict is the expected one, 1 on any
// difference, 2 when the matrix could not be run at all.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Target is one configuration of one limiter: its folder's limiter.env
// (how to install, build and start the server) merged with the
// configuration's target.env (rlspec's settings, also given to the server).
type Target struct {
	Dir     string            // the configuration's folder
	Limiter string            // the limiter's folder (Dir's parent)
	Case    string            // the configuration's name (Dir's base)
	Env     map[string]string // limiter.env, then target.env over it
	Order   int               // INTEROP_ORDER of the limiter: the matrix's row order
}

// The driver's own keys, read from the env files and never given to rlspec.
const (
	keyName      = "INTEROP_NAME"        // the limiter's name in the matrix
	keyVersion   = "INTEROP_VERSION"     // shell command printing the pinned version
	keyApt       = "INTEROP_APT"         // Debian packages to install when the runtime is missing
	keyRuntime   = "INTEROP_RUNTIME"     // command that must exist, else "skipped: no <it>"
	keyBuild     = "INTEROP_BUILD"       // shell command run once in the limiter's folder ($BIN: the binary)
	keyStore     = "INTEROP_STORE"       // shell command starting the limiter's store ($STORE_PORT)
	keyStart     = "INTEROP_START"       // shell command starting one instance ($PORT, $STORE_PORT)
	keyInstances = "INTEROP_INSTANCES"   // instances on one store (TARGET_URLS), default 1
	keyReady     = "INTEROP_READY"       // path polled until it answers, default /
	keyOrder     = "INTEROP_ORDER"       // the limiter's place in the matrix
	keyRace      = "INTEROP_RACE_CHECKS" // CHECKS of the short rlspec race, default 3; 0 skips it
	keyRaceTime  = "INTEROP_RACE_BUDGET" // the race's time budget (Go duration), default raceTimeout; stated in the matrix
	keyRaceSeed  = "INTEROP_RACE_SEED"   // SEED of the race: the same workloads every run; stated in the matrix
)

// Discover lists the targets under root: every folder holding target.env,
// ordered by the limiter's INTEROP_ORDER, then by folder.
func Discover(root string) ([]Target, error) {
	paths, err := filepath.Glob(filepath.Join(root, "*", "*", "target.env"))
	if err != nil {
		return nil, fmt.Errorf("find targets: %w", err)
	}
	var ts []Target
	for _, p := range paths {
		dir := filepath.Dir(p)
		lim := filepath.Dir(dir)
		env := map[string]string{}
		for _, f := range []string{filepath.Join(lim, "limiter.env"), p} {
			if err := readEnv(f, env); err != nil {
				return nil, err
			}
		}
		t := Target{Dir: dir, Limiter: lim, Case: filepath.Base(dir), Env: env}
		if _, err := fmt.Sscan(env[keyOrder], &t.Order); err != nil {
			return nil, fmt.Errorf("%s: %s %q is not a number", lim, keyOrder, env[keyOrder])
		}
		if env[keyName] == "" || env[keyStart] == "" {
			return nil, fmt.Errorf("%s: %s and %s are required", dir, keyName, keyStart)
		}
		ts = append(ts, t)
	}
	slices.SortStableFunc(ts, func(a, b Target) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(a.Dir, b.Dir)
	})
	return ts, nil
}

// readEnv reads KEY=value lines into env ('#' comments, blank lines, values
// taken literally up to the end of the line).
func readEnv(path string, env map[string]string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read env: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return fmt.Errorf("%s:%d: not KEY=value", path, n)
		}
		env[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return sc.Err()
}

// Settings are the target's variables for rlspec and its server: every key
// but the driver's own.
func (t Target) Settings() []string {
	var s []string
	for k, v := range t.Env {
		if !strings.HasPrefix(k, "INTEROP_") {
			s = append(s, k+"="+v)
		}
	}
	slices.Sort(s)
	return s
}

// Label is the target's row name: the limiter and its configuration.
func (t Target) Label() string { return t.Env[keyName] + " " + t.Case }
