package service

import (
	"flag"

	"github.com/rlspec/rlspec/envflag"
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
	FlagLBMode        = "lb-mode"
	FlagDelay         = "rl-delay"
	FlagPenalties     = "rl-penalties"
)

// RegisterSome binds only the named settings to fs (RegisterFlags binds them
// all), so that a command shows and accepts only the flags it uses.
func (c *Config) RegisterSome(fs *flag.FlagSet, getenv envflag.Getenv, names ...string) {
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
