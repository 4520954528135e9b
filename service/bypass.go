package service

import (
	"errors"
	"flag"
	"net/http"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// bypass's setting (profiles.md SL-10): BYPASS_HEADERS are the headers that
// make a request a bypass identity (spec/002's admin or system role),
// ';'-separated "Name: value" as TARGET_HEADERS. The embedded reference
// bypasses DefaultBypassHeaders.
const (
	envBypass = "BYPASS_HEADERS"

	DefaultBypassHeaders = "X-Role: admin"
)

// registerBypassFlags binds -bypass-headers.
func (c *Config) registerBypassFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, envBypass, (*bypassFlag)(&c.BypassHeaders)), "bypass-headers",
		"bypass: headers that make a request a bypass identity, ';'-separated, e.g. 'X-Role: admin' ("+envBypass+")")
}

// bypassFlag is BYPASS_HEADERS: TARGET_HEADERS' format, its own message.
type bypassFlag http.Header

func (f *bypassFlag) String() string { return (*headerFlag)(f).String() }
func (f *bypassFlag) Set(s string) error {
	if err := (*headerFlag)(f).Set(s); err != nil {
		return errors.New("an entry is not 'Name: value' (entries are ';'-separated)")
	}
	return nil
}

// WithBypassDefaults fills BYPASS_HEADERS left unset with the embedded
// reference's DefaultBypassHeaders when bypass is claimed.
func (c Config) WithBypassDefaults() Config { return c.withDefault(profile.Bypass) }

// ClaimedBypass is BYPASS_HEADERS when bypass is claimed, else nil: the
// headers an embedded reference lets through.
func (c Config) ClaimedBypass() http.Header {
	if !c.Claims(profile.Bypass) {
		return nil
	}
	return c.BypassHeaders
}
