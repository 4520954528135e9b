package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// sqlTarget opens TARGET_SQL (TARGET_DB=embedded: spec/004's shipped
// function in a throwaway PostgreSQL) as a load target: every connection
// of the attack is a pgx connection of its own, every request one call of
// the function in its own transaction as one of BUCKETS callers.
func sqlTarget(ctx context.Context, cfg config, stdout io.Writer) (string, loadgen.Dialer, func() ([][]byte, error), func(), error) {
	tc := cfg.Target
	closeAll := func() {}
	target := sqltarget.Describe(tc)
	if tc.DB == service.DBEmbedded {
		sql, err := embedded.StartSQL(ctx, spec004.Shipped)
		if err != nil {
			return "", nil, nil, nil, err
		}
		closeAll = func() { _ = sql.Close() }
		tc.DB, target = sql.DSN, sql.Description
	}
	tr, err := sqltarget.New(ctx, sqltarget.ConfigFor(tc), sqltarget.WithMaxConns(1))
	if err != nil {
		closeAll()
		return "", nil, nil, nil, err
	}
	stop := closeAll
	closeAll = func() { tr.Close(); stop() }
	fmt.Fprintf(stdout, "target: %s (RL_LIMIT=%d, RL_WINDOW=%s)\n", target, tc.Limit, tc.Window)
	keys := make([]string, cfg.Buckets)
	for i := range keys {
		keys[i] = bodytmpl.NewUUID()
	}
	dial := func(ctx context.Context) (loadgen.KeyCaller, error) {
		c, err := tr.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return target, loadgen.NewKeyDialer(dial, loadgen.DefaultTimeout), loadgen.KeyRequests(keys), closeAll, nil
}
