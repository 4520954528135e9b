package service

import (
	"flag"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/envflag"
)

// registerDialectFlags binds how the target answers (dialects.md): DIALECT,
// RESET_FORMAT, HEADER_PREFIX, LIMITED_STATUS, LIMITED_BODY.
func (c *Config) registerDialectFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, "DIALECT", envflag.Parsed(&c.Dialect, dialect.ParseDialect)), FlagDialect,
		dialect.DialectChoices()+"; default auto, prd x-ratelimit (DIALECT)")
	fs.Var(envflag.Value(getenv, "RESET_FORMAT", envflag.Parsed(&c.ResetFormat, dialect.ParseResetFormat)), FlagResetFormat,
		"how X-RateLimit-Reset is written: "+dialect.ResetFormatChoices()+"; default auto, prd unix (RESET_FORMAT)")
	fs.Var(envflag.Value(getenv, "HEADER_PREFIX", envflag.Parsed(&c.HeaderPrefix, dialect.ParsePrefix)), FlagHeaderPrefix,
		"prefix of the x-ratelimit headers, default X-RateLimit- (HEADER_PREFIX)")
	fs.Var(envflag.Value(getenv, "LIMITED_STATUS", envflag.Parsed(&c.LimitedStatus, dialect.ParseLimitedStatus)), FlagLimitedStatus,
		"status of a refusal, default 429 (LIMITED_STATUS)")
	fs.Var(envflag.Value(getenv, "LIMITED_BODY", envflag.Parsed(&c.LimitedBody, dialect.ParseBody)), FlagLimitedBody,
		"a refusal's body: /json/pointer=value[|value], text:<regexp> or none; default per profile (LIMITED_BODY)")
}
