package service

import (
	"flag"
	"fmt"

	"github.com/rlspec/rlspec/dialect"
)

// registerDialectFlags binds how the target answers (dialects.md): DIALECT,
// RESET_FORMAT, HEADER_PREFIX, LIMITED_STATUS, LIMITED_BODY.
func (c *Config) registerDialectFlags(fs *flag.FlagSet, getenv Getenv) {
	fs.Var(envValue(getenv, "DIALECT", parsed(&c.Dialect, dialect.ParseDialect)), FlagDialect,
		"x-ratelimit, ratelimit-fields, ratelimit-dict, ietf, status or auto; default auto, prd x-ratelimit (DIALECT)")
	fs.Var(envValue(getenv, "RESET_FORMAT", parsed(&c.ResetFormat, dialect.ParseResetFormat)), FlagResetFormat,
		"how X-RateLimit-Reset is written: unix, unix-ms, delta, http-date or auto; default auto, prd unix (RESET_FORMAT)")
	fs.Var(envValue(getenv, "HEADER_PREFIX", parsed(&c.HeaderPrefix, dialect.ParsePrefix)), FlagHeaderPrefix,
		"prefix of the x-ratelimit headers, default X-RateLimit- (HEADER_PREFIX)")
	fs.Var(envValue(getenv, "LIMITED_STATUS", parsed(&c.LimitedStatus, dialect.ParseLimitedStatus)), FlagLimitedStatus,
		"status of a refusal, default 429 (LIMITED_STATUS)")
	fs.Var(envValue(getenv, "LIMITED_BODY", parsed(&c.LimitedBody, dialect.ParseBody)), FlagLimitedBody,
		"a refusal's body: /json/pointer=value[|value], text:<regexp> or none; default per profile (LIMITED_BODY)")
}

// parsedFlag is a flag.Value of any type read by parse.
type parsedFlag[T any] struct {
	dst   *T
	parse func(string) (T, error)
}

// parsed is a flag.Value setting *dst with parse.
func parsed[T any](dst *T, parse func(string) (T, error)) *parsedFlag[T] {
	return &parsedFlag[T]{dst, parse}
}

func (f *parsedFlag[T]) String() string {
	if f.dst == nil {
		return ""
	}
	if s := fmt.Sprint(*f.dst); s != "0" {
		return s
	}
	return ""
}

func (f *parsedFlag[T]) Set(s string) error {
	v, err := f.parse(s)
	if err != nil {
		return err
	}
	*f.dst = v
	return nil
}
