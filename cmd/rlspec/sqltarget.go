package main

import (
	"context"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

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
