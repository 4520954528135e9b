package sqltarget

import (
	"fmt"

	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
)

// ConfigFor is the Config of tc's TARGET_SQL: the function in TARGET_DB,
// RL_LIMIT and RL_WINDOW as its arguments, the caller in KEY's header.
func ConfigFor(tc service.Config) Config {
	key := tc.Key.Name
	if tc.Key.Kind != service.KeyHeader {
		key = ""
	}
	return Config{DSN: tc.DB, Function: tc.SQL, Limit: tc.Limit, Window: tc.Window, KeyHeader: key}
}

// Describe names tc's SQL target for reports: the function and where it
// is, without credentials.
func Describe(tc service.Config) string {
	return fmt.Sprintf("%s in %s", tc.SQL, redact.DSN(tc.DB))
}
