package service

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

// DBEmbedded is the TARGET_DB value that, with TARGET_SQL, makes rlspec
// start a throwaway PostgreSQL holding spec/004's function (self-tests).
const DBEmbedded = "embedded"

// SQLProfile is the design of TARGET_SQL, spec/004's check_rate_limit: a
// fixed window opened by a key's first request. It is the seed's, not a
// design's particular: the SQL target calls that one function.
const SQLProfile = profile.FixedWindow

// SQLDefaults fills, when TARGET_SQL is set, the settings spec/004's
// function implies and the user left unset: PROFILE=fixed-window (unless
// profileGiven), WINDOW_ALIGN=first-request, DIALECT=status and
// FEATURES=anonymous-open (its auth.uid() NULL returns TRUE). Call it at the
// CLI edge before Validate.
func (c *Config) SQLDefaults(profileGiven bool) {
	if c.SQL == "" {
		return
	}
	if !profileGiven {
		c.Profile = SQLProfile
	}
	if c.WindowAlign == "" {
		c.WindowAlign = profile.AlignFirstRequest
	}
	if !c.Dialect.Concrete() {
		c.Dialect = dialect.Status
	}
	if c.Features == nil {
		c.Features = []profile.Feature{profile.AnonymousOpen}
	}
}

// validateSQL reports the settings TARGET_SQL cannot work with, one
// sentence each.
func (c Config) validateSQL() []error {
	if c.SQL == "" {
		return nil
	}
	var errs []error
	switch {
	case c.DB == "":
		errs = append(errs, fmt.Errorf("TARGET_SQL=%s needs TARGET_DB=postgres://… (the database holding the function) or TARGET_DB=embedded", c.SQL))
	case c.DB != DBEmbedded && !c.DBIsPostgres():
		errs = append(errs, fmt.Errorf("TARGET_SQL=%s needs a postgres:// TARGET_DB, not %q", c.SQL, redact.DSN(c.DB)))
	}
	if c.URL != "" {
		errs = append(errs, errors.New("TARGET_SQL is the target: unset TARGET_URL (and TARGET_IMAGE)"))
	}
	if c.Profile != SQLProfile {
		errs = append(errs, fmt.Errorf("TARGET_SQL calls spec/004's function, profile %s, not PROFILE=%s", SQLProfile, c.Profile))
	}
	if c.WindowAlign == profile.AlignEpoch {
		errs = append(errs, errors.New("WINDOW_ALIGN=epoch does not apply to TARGET_SQL: spec/004's function opens a window at a key's first request"))
	}
	if c.Dialect.Concrete() && c.Dialect != dialect.Status {
		errs = append(errs, fmt.Errorf("DIALECT=%s does not apply to TARGET_SQL: the function answers true or false (status)", c.Dialect))
	}
	if c.LimitedBody.Checked() {
		errs = append(errs, errors.New("LIMITED_BODY does not apply to TARGET_SQL: a refusal is the function's false, with no body"))
	}
	if c.Key != (Key{}) && c.Key.Kind != KeyHeader {
		errs = append(errs, fmt.Errorf("KEY=%s does not apply to TARGET_SQL: the caller is the key header's value, as auth.uid()", c.Key))
	}
	if slices.Contains(c.Features, profile.MultiInstance) || slices.Contains(c.Features, profile.Persistence) {
		errs = append(errs, errors.New("FEATURES multi-instance and persistence need instances; TARGET_SQL calls one database"))
	}
	return errs
}
