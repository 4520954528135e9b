package envflag

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// StringVar binds p to the flag name, defaulting to the environment
// variable env when set.
func StringVar(fs *flag.FlagSet, getenv Getenv, p *string, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	if v, ok := getenv(env); ok {
		*p = v
	}
	fs.StringVar(p, name, *p, usage+" ("+env+")")
}

// DurationVar binds p (a Go duration or seconds) to the flag name and the
// environment variable env; a malformed value surfaces through Errors.
func DurationVar(fs *flag.FlagSet, getenv Getenv, p *time.Duration, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	fs.Var(Value(getenv, env, (*DurationValue)(p)), name, usage+" ("+env+")")
}

// BoolVar binds p (1/0, true/false, yes/no, on/off) to the flag name and the
// environment variable env; a malformed value surfaces through Errors.
func BoolVar(fs *flag.FlagSet, getenv Getenv, p *bool, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	fs.Var(Value(getenv, env, (*BoolValue)(p)), name, usage+" ("+env+")")
}

// ParseDuration reads a Go duration ("3s", "1h") or a number of seconds ("3600").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > int64(1<<62/time.Second) {
			return 0, fmt.Errorf("duration %q out of range", s)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is neither a Go duration nor seconds", s)
	}
	return d, nil
}
