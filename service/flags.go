package service

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

// envValue seeds v from the environment variable env and returns it as a flag
// value. A malformed environment value is remembered and reported by Set's
// caller through flag parsing: it is applied again when the flag set parses,
// so the error surfaces as a usage error, not a panic.
func envValue(getenv Getenv, env string, v flag.Value) flag.Value {
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

// EnvErrors returns the environment values that could not be parsed for the
// flags of fs, one error each.
func EnvErrors(fs *flag.FlagSet) error {
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

type intFlag int

func (f *intFlag) String() string { return strconv.Itoa(int(*f)) }
func (f *intFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	*f = intFlag(n)
	return nil
}

type durationFlag time.Duration

func (f *durationFlag) String() string { return time.Duration(*f).String() }
func (f *durationFlag) Set(s string) error {
	d, err := ParseWindow(s)
	if err != nil {
		return err
	}
	*f = durationFlag(d)
	return nil
}

type boolFlag bool

func (f *boolFlag) String() string   { return strconv.FormatBool(bool(*f)) }
func (f *boolFlag) IsBoolFlag() bool { return true }
func (f *boolFlag) Set(s string) error {
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

type headerFlag http.Header

// String shows credentials as references to their variables
// (redact.Headers, unquoted): it is what help and replay commands print.
func (f *headerFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	s := redact.Headers(http.Header(*f))
	return s[1 : len(s)-1]
}
func (f *headerFlag) Set(s string) error {
	h, err := ParseHeaders(s)
	if err != nil {
		return err
	}
	*f = headerFlag(h)
	return nil
}

type schemaFlag DBSchema

func (f *schemaFlag) String() string { return string(*f) }
func (f *schemaFlag) Set(s string) error {
	switch DBSchema(s) {
	case SchemaPRD, SchemaTokens:
		*f = schemaFlag(s)
		return nil
	}
	return fmt.Errorf("%q is neither prd nor tokens", s)
}

type clientIPsFlag httpclient.AddrMode

func (f *clientIPsFlag) String() string { return string(*f) }
func (f *clientIPsFlag) Set(s string) error {
	switch httpclient.AddrMode(s) {
	case httpclient.Bind, httpclient.XFF:
		*f = clientIPsFlag(s)
		return nil
	}
	return fmt.Errorf("%q is neither bind nor xff", s)
}

// FromEnvironment fills a Config from the process environment and the given
// command-line arguments (flags win), validates it and returns it.
func FromEnvironment(name string, args []string) (Config, error) {
	c := DefaultConfig()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	c.RegisterFlags(fs, os.LookupEnv)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := EnvErrors(fs); err != nil {
		return c, err
	}
	return c, c.Validate()
}

type profileFlag profile.Name

func (f *profileFlag) String() string { return string(*f) }
func (f *profileFlag) Set(s string) error {
	p, err := profile.Parse(s, true)
	if err != nil {
		return err
	}
	*f = profileFlag(p)
	return nil
}

// featuresFlag is a comma list; set to "" it claims none (non-nil empty).
type featuresFlag []profile.Feature

func (f *featuresFlag) String() string {
	if f == nil {
		return ""
	}
	s := make([]string, len(*f))
	for i, x := range *f {
		s[i] = string(x)
	}
	return strings.Join(s, ",")
}
func (f *featuresFlag) Set(s string) error {
	out := []profile.Feature{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, profile.Feature(part))
		}
	}
	*f = out
	return nil
}

type keyFlag Key

func (f *keyFlag) String() string { return Key(*f).String() }
func (f *keyFlag) Set(s string) error {
	k, err := ParseKey(s)
	if err != nil {
		return err
	}
	*f = keyFlag(k)
	return nil
}

type alignFlag profile.Align

func (f *alignFlag) String() string { return string(*f) }
func (f *alignFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%q is not one of epoch, first-request", s)
	}
	a, err := profile.ParseAlign(s)
	if err != nil {
		return err
	}
	*f = alignFlag(a)
	return nil
}

type methodFlag string

func (f *methodFlag) String() string { return string(*f) }
func (f *methodFlag) Set(s string) error {
	m := strings.ToUpper(strings.TrimSpace(s))
	if m == "" || strings.Trim(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return fmt.Errorf("%q is not an HTTP method", s)
	}
	*f = methodFlag(m)
	return nil
}
