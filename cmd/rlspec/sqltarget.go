package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// settingGiven reports whether the flag name was set on the command line
// or the variable env in the environment.
func settingGiven(fs *flag.FlagSet, getenv service.Getenv, name, env string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if _, ok := getenv(env); ok {
		given = true
	}
	return given
}

// sqlFault checks FAULT (-fault) for a TARGET_SQL run: a variant of
// spec/004's function, which only TARGET_DB=embedded can install; STORE
// does not apply.
func sqlFault(tc service.Config, faultName, store string) (spec004.Variant, error) {
	if strings.TrimSpace(store) != "" {
		return "", errors.New("STORE applies to the embedded reference; TARGET_SQL runs on PostgreSQL: unset STORE")
	}
	v, err := spec004.ParseVariant(faultName)
	if err != nil {
		return "", fmt.Errorf("FAULT with TARGET_SQL: %w", err)
	}
	if v != spec004.Shipped && tc.DB != service.DBEmbedded {
		return "", fmt.Errorf("FAULT=%s installs a faulty check_rate_limit: it needs TARGET_DB=embedded, not your database", v)
	}
	return v, nil
}

// startSQL provisions TARGET_DB=embedded: a throwaway PostgreSQL with
// spec/004's function of variant v, and points cfg at it.
func startSQL(ctx context.Context, cfg *acceptance.Config, v spec004.Variant) (*embedded.SQL, error) {
	sql, err := embedded.StartSQL(ctx, v)
	if err != nil {
		return nil, err
	}
	cfg.Target.DB = sql.DSN
	cfg.Name = sql.Description
	return sql, nil
}
