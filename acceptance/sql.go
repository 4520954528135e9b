package acceptance

import (
	"context"
	"errors"

	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget"
)

// sqlBase is the base URL the steps address a SQL target by; its requests
// never leave the process (sqltarget's RoundTripper answers them).
const sqlBase = "http://sql-target.invalid"

// sqlConns bounds the SQL target's connections: one per call in flight,
// enough for the concurrent scenarios of the suite at once.
const sqlConns = 64

// openSQL opens tc's TARGET_SQL in TARGET_DB and points tc at it.
func openSQL(ctx context.Context, tc *service.Config) (*sqltarget.Transport, error) {
	if tc.DB == service.DBEmbedded {
		return nil, errors.New("TARGET_DB=embedded must be started by the caller before acceptance.Run (rlspec acceptance does)")
	}
	tr, err := sqltarget.New(ctx, sqltarget.ConfigFor(*tc), sqltarget.WithMaxConns(sqlConns))
	if err != nil {
		return nil, err
	}
	if err := tr.CheckAging(ctx); err != nil {
		tr.Close()
		return nil, err
	}
	tc.URL, tc.DisabledURL = sqlBase, ""
	if tc.Implementation == "" {
		tc.Implementation = sqltarget.Describe(*tc)
	}
	return tr, nil
}
