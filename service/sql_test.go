package service

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

func TestSQLDefaultsAndValidation(t *testing.T) {
	sqlCfg := func(edit func(*Config), profileGiven bool) Config {
		c := DefaultConfig()
		c.SQL, c.DB = "check_rate_limit", "postgres://localhost/db"
		if edit != nil {
			edit(&c)
		}
		c.SQLDefaults(profileGiven)
		return c
	}
	c := sqlCfg(nil, false)
	if err := c.Validate(); err != nil {
		t.Fatalf("spec/004's settings refused: %v", err)
	}
	if c.Profile != profile.FixedWindow || c.WindowAlign != profile.AlignFirstRequest || c.Dialect != dialect.Status || !c.Claims(profile.AnonymousOpen) {
		t.Errorf("defaults: %+v", c)
	}
	if e := sqlCfg(func(c *Config) { c.DB = DBEmbedded }, false).Validate(); e != nil {
		t.Errorf("TARGET_DB=embedded refused: %v", e)
	}
	for _, bad := range []struct {
		edit         func(*Config)
		profileGiven bool
		want         string
	}{
		{func(c *Config) { c.DB = "" }, false, "needs TARGET_DB=postgres://"},
		{func(c *Config) { c.DB = "sqlite:/x.db" }, false, "needs a postgres:// TARGET_DB"},
		{func(c *Config) { c.Profile = profile.SlidingLog }, true, "not PROFILE=sliding-log"},
		{nil, true, "not PROFILE=prd"}, // PROFILE=prd given
		{func(c *Config) { c.WindowAlign = profile.AlignEpoch }, false, "WINDOW_ALIGN=epoch"},
		{func(c *Config) { c.Dialect = dialect.XRateLimit }, false, "DIALECT=x-ratelimit"},
		{func(c *Config) { c.LimitedBody = dialect.JSONBody("/e", "x") }, false, "LIMITED_BODY"},
		{func(c *Config) { c.Key = Key{Kind: KeyIP} }, false, "KEY=ip"},
		{func(c *Config) { c.URL = "http://x" }, false, "unset TARGET_URL"},
	} {
		err := sqlCfg(bad.edit, bad.profileGiven).Validate()
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("want %q, got %v", bad.want, err)
		}
	}
	c = DefaultConfig()
	c.DB = DBEmbedded
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "needs TARGET_SQL") {
		t.Errorf("TARGET_DB=embedded without TARGET_SQL: %v", err)
	}
	c = DefaultConfig()
	c.SQLDefaults(false)
	if c.Profile != profile.PRD || c.Dialect != dialect.Unset {
		t.Errorf("SQLDefaults without TARGET_SQL changed %+v", c)
	}
}
