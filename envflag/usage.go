package envflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Parse parses args with fs for a command line: -h prints usage (the
// summary, then every flag with its environment variable) to help and
// returns flag.ErrHelp; any other mistake is returned as one sentence
// pointing at -h, with nothing printed.
func Parse(fs *flag.FlagSet, args []string, summary string, help io.Writer) error {
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

// Given reports whether the flag name was set on the command line
// of the parsed fs or the variable env is in the environment.
func Given(fs *flag.FlagSet, getenv Getenv, name, env string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if _, ok := getenv(env); ok {
		given = true
	}
	return given
}
