package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// faultFlag is -fault (FAULT for rlspec race): the deliberate defect of
// what a self-test starts. What it names depends on the target, which is
// known only once every setting is read: a fault of the embedded reference
// (a fault.Name), or, with TARGET_SQL, a variant of spec/004's function (a
// spec004.Variant). The flag keeps the text; each reading is a typed value
// of its own (Fault, Variant), and a command asks for the one its target
// takes.
type faultFlag struct{ text string }

func (f *faultFlag) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

func (f *faultFlag) Set(s string) error {
	f.text = s
	return nil
}

// Fault is the flag as a fault of the embedded reference ("" and none:
// fault.None).
func (f faultFlag) Fault() (fault.Name, error) { return faults.Parse(f.text) }

// Variant is the flag for a TARGET_SQL run tc: a variant of spec/004's
// function, which only TARGET_DB=embedded can install; STORE does not
// apply.
func (f faultFlag) Variant(tc service.Config, store string) (spec004.Variant, error) {
	if strings.TrimSpace(store) != "" {
		return "", errors.New("STORE applies to the embedded reference; TARGET_SQL runs on PostgreSQL: unset STORE")
	}
	v, err := spec004.ParseVariant(f.text)
	if err != nil {
		return "", fmt.Errorf("FAULT with TARGET_SQL: %w", err)
	}
	if v != spec004.Shipped && tc.DB != service.DBEmbedded {
		return "", fmt.Errorf("FAULT=%s installs a faulty check_rate_limit: it needs TARGET_DB=embedded, not your database", v)
	}
	return v, nil
}
