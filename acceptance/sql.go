package acceptance

import (
	"context"
	"errors"
	"fmt"

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
	tr, err := sqltarget.New(ctx, SQLConfig(*tc), sqltarget.WithMaxConns(sqlConns))
	if err != nil {
		return nil, err
	}
	tc.URL, tc.DisabledURL = sqlBase, ""
	if tc.Implementation == "" {
		tc.Implementation = SQLName(*tc)
	}
	return tr, nil
}

// SQLConfig is sqltarget's configuration for tc's TARGET_SQL.
func SQLConfig(tc service.Config) sqltarget.Config {
	key := tc.Key.Name
	if tc.Key.Kind != service.KeyHeader {
		key = ""
	}
	return sqltarget.Config{DSN: tc.DB, Function: tc.SQL, Limit: tc.Limit, Window: tc.Window, KeyHeader: key}
}

// SQLName is how reports name a SQL target: the function and where it is,
// without credentials.
func SQLName(tc service.Config) string {
	return fmt.Sprintf("%s in %s", tc.SQL, service.RedactDSN(tc.DB))
}
