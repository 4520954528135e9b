// Package faulttest starts the reference server with one fault applied (or
// gives its configuration), for the tests of the packages that must tell a
// faulty service from a correct one.
package faulttest

import (
	"testing"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
)

// Start starts a reference on loopback configured by mutate (nil: the
// defaults), with fault f applied after it (fault.None: the reference), and
// returns its URL. It is closed when t ends.
func Start(t testing.TB, f fault.Name, mutate func(*fakeserver.Config)) string {
	t.Helper()
	r, err := fakeserver.Start(Config(t, f, mutate), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r.URL
}

// Config is the defaults changed by mutate (nil: none) with fault f
// applied after it (fault.None: the reference); the test fails on an
// unknown fault.
func Config(t testing.TB, f fault.Name, mutate func(*fakeserver.Config)) fakeserver.Config {
	t.Helper()
	cfg := fakeserver.DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	cfg, err := faults.Apply(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
