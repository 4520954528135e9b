package faults

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// Lookup returns the fault named n.
func Lookup(n fault.Name) (fault.Fault, bool) {
	for _, f := range All() {
		if f.Name == n {
			return f, true
		}
	}
	return fault.Fault{}, false
}

// Parse accepts "" or "none" (the reference) and every fault's name.
func Parse(s string) (fault.Name, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return fault.None, nil
	}
	if f, ok := Lookup(fault.Name(s)); ok {
		return f.Name, nil
	}
	var names []string
	for _, f := range All() {
		names = append(names, string(f.Name))
	}
	slices.Sort(names)
	return fault.None, fmt.Errorf("unknown fault %q (known: %s)", s, strings.Join(names, ", "))
}

// Apply returns cfg with fault n's replacements (cfg itself for None).
func Apply(n fault.Name, cfg fakeserver.Config) (fakeserver.Config, error) {
	if n == fault.None {
		return cfg, nil
	}
	f, ok := Lookup(n)
	if !ok {
		return cfg, fmt.Errorf("apply fault: unknown fault %q", string(n))
	}
	cfg.Wrap = f.Wrap(cfg)
	return cfg, nil
}
