package service

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Flag names of the contract's settings, for RegisterSome.
const (
	FlagURL           = "target-url"
	FlagDisabledURL   = "target-url-disabled"
	FlagPath          = "target-path"
	FlagHeaders       = "target-headers"
	FlagBodyTemplate  = "body-template"
	FlagLimit         = "rl-limit"
	FlagWindow        = "rl-window"
	FlagSentinel      = "rl-sentinel"
	FlagDB            = "target-db"
	FlagSQL           = "target-sql"
	FlagSchema        = "db-schema"
	FlagClientIPs     = "client-ips"
	FlagProfile       = "profile"
	FlagImpl          = "implementation"
	FlagFeatures      = "features"
	FlagKey           = "key"
	FlagKeyFormat     = "key-format"
	FlagMethod        = "target-method"
	FlagWindowAlign   = "window-align"
	FlagDialect       = "dialect"
	FlagLimitedBody   = "limited-body"
	FlagResetFormat   = "reset-format"
	FlagHeaderPrefix  = "header-prefix"
	FlagLimitedStatus = "limited-status"
	FlagBurst         = "rl-burst"
	FlagRate          = "rl-rate"
)

// RegisterSome binds only the named settings to fs (RegisterFlags binds them
// all), so that a command shows and accepts only the flags it uses.
func (c *Config) RegisterSome(fs *flag.FlagSet, getenv Getenv, names ...string) {
	all := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	c.RegisterFlags(all, getenv)
	for _, n := range names {
		f := all.Lookup(n)
		if f == nil {
			panic("target: no setting flag " + n) // a programming error, caught by every test of the command
		}
		fs.Var(f.Value, f.Name, f.Usage)
	}
}

// ParseFlags parses args with fs for a command line: -h prints usage (the
// summary, then every flag with its environment variable) to help and
// returns flag.ErrHelp; any other mistake is returned as one sentence
// pointing at -h, with nothing printed.
func ParseFlags(fs *flag.FlagSet, args []string, summary string, help io.Writer) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		PrintUsage(help, fs, summary)
		return err
	}
	if err != nil {
		return fmt.Errorf("%v (%s -h lists the flags)", err, fs.Name())
	}
	return nil
}

// PrintUsage writes the usage of the command fs: its summary and its flags.
func PrintUsage(w io.Writer, fs *flag.FlagSet, summary string) {
	fmt.Fprintf(w, "usage: %s [flags]\n\n%s\n", fs.Name(), strings.TrimSpace(summary))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nEach flag can also be set by the environment variable in parentheses; a flag wins.\n\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// SettingGiven reports whether the flag name was set on the command line
// of the parsed fs or the variable env is in the environment.
func SettingGiven(fs *flag.FlagSet, getenv Getenv, name, env string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if _, ok := getenv(env); ok {
		given = true
	}
	return given
}
