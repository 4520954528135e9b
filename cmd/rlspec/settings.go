package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/service"
)

// chooseEmbedded is service.Config.ChooseEmbedded for a command's parsed
// flags: whether TARGET_URL was given, and CI from the environment; other
// says a target other than TARGET_URL was given (TARGET_URLS, an image).
func chooseEmbedded(tc *service.Config, fs *flag.FlagSet, getenv envflag.Getenv, other bool) error {
	_, err := tc.ChooseEmbedded(envflag.Given(fs, getenv, service.FlagURL, "TARGET_URL"), other || tc.SQL != "", envflag.InCI(getenv))
	return err
}

// warnUnknown writes a warning per variable of rlspec's namespace that the
// command did not look up through env (envflag.Unknown).
func warnUnknown(w io.Writer, command string, env *envflag.Recorder) {
	for _, s := range envflag.Unknown(os.Environ(), env.Names(), command) {
		fmt.Fprintf(w, "%s: warning: %s\n", command, s)
	}
}

// commandSettings fills a subcommand's settings with parse from flags over
// the environment and warns about variables it did not read. ok is false
// when the command ends here: exit 0 after -h, or 2 with one sentence for
// a mistake; exit says which.
func commandSettings[T any](name string, args []string, stdout, stderr io.Writer,
	parse func([]string, envflag.Getenv, io.Writer) (T, error)) (cfg T, exit int, ok bool) {
	env := envflag.Record(os.LookupEnv)
	cfg, err := parse(args, env.Lookup, stdout)
	warnUnknown(stderr, "rlspec "+name, env)
	if errors.Is(err, flag.ErrHelp) {
		return cfg, 0, false
	}
	if err != nil {
		return cfg, couldNotRun(stderr, name, "", err.Error()), false
	}
	return cfg, 0, true
}
