// Package envflag reads a command's settings the one way rlspec reads
// them all: each flag's default is the environment variable of the same
// meaning, the flag wins, and a malformed value, from either, is one
// sentence naming the variable (Errors) instead of a panic or a silent
// default. It also prints a command's usage with each flag's variable
// (Parse, PrintUsage), says whether a setting was given (Given), and warns
// of variables that look like settings but are none (Unknown).
package envflag

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Getenv looks a variable up; os.LookupEnv in production, a map in tests.
type Getenv func(key string) (string, bool)

// Map is the Getenv of the variables of m, as tests set them.
func Map(m map[string]string) Getenv {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// Value seeds v from the environment variable env and returns it as a flag
// value. A malformed environment value is remembered and reported by Set's
// caller through flag parsing: it is applied again when the flag set parses,
// so the error surfaces as a usage error, not a panic.
func Value(getenv Getenv, env string, v flag.Value) flag.Value {
	if s, ok := getenv(env); ok {
		if err := v.Set(s); err != nil {
			return &badEnv{Value: v, err: fmt.Errorf("%s: %w", env, err)}
		}
	}
	return v
}

// badEnv carries an invalid environment value until the caller asks.
type badEnv struct {
	flag.Value
	err error
}

// Set clears the error when the flag overrides the environment.
func (b *badEnv) Set(s string) error {
	if err := b.Value.Set(s); err != nil {
		return err
	}
	b.err = nil
	return nil
}

// Errors returns the environment values that could not be parsed for the
// flags of fs, one error each.
func Errors(fs *flag.FlagSet) error {
	var msgs []string
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(*badEnv); ok && b.err != nil {
			msgs = append(msgs, b.err.Error())
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("bad settings: %s", strings.Join(msgs, "; "))
}

// IntValue is a flag.Value of an int.
type IntValue int

func (f *IntValue) String() string { return strconv.Itoa(int(*f)) }
func (f *IntValue) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	*f = IntValue(n)
	return nil
}

// DurationValue is a flag.Value of a Go duration or a number of seconds
// (ParseDuration).
type DurationValue time.Duration

func (f *DurationValue) String() string { return time.Duration(*f).String() }
func (f *DurationValue) Set(s string) error {
	d, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*f = DurationValue(d)
	return nil
}

// BoolValue is a boolean flag.Value that reads 1/0, true/false, yes/no and
// on/off.
type BoolValue bool

func (f *BoolValue) String() string   { return strconv.FormatBool(bool(*f)) }
func (f *BoolValue) IsBoolFlag() bool { return true }
func (f *BoolValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		*f = true
	case "", "0", "false", "no", "off":
		*f = false
	default:
		return fmt.Errorf("%q is not 0 or 1", s)
	}
	return nil
}

// parsedFlag is a flag.Value of any type read by parse.
type parsedFlag[T any] struct {
	dst   *T
	parse func(string) (T, error)
}

// Parsed is a flag.Value setting *dst with parse.
func Parsed[T any](dst *T, parse func(string) (T, error)) flag.Value {
	return &parsedFlag[T]{dst, parse}
}

func (f *parsedFlag[T]) String() string {
	if f.dst == nil {
		return ""
	}
	if s := fmt.Sprint(*f.dst); s != "0" {
		return s
	}
	return ""
}

func (f *parsedFlag[T]) Set(s string) error {
	v, err := f.parse(s)
	if err != nil {
		return err
	}
	*f.dst = v
	return nil
}
