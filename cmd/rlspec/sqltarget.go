package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

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
