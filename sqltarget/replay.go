package sqltarget

import (
	"fmt"
	"net/http"
	"strings"
)

// Command is the psql command that makes the call a request with headers h
// makes: the same transaction, the caller in request.jwt.claims. The
// database is "$TARGET_DB", never its URL (it may carry a password).
func (t *Transport) Command(h http.Header) string {
	var b strings.Builder
	b.WriteString("BEGIN; ")
	if claims := claimsFor(h.Get(t.keyHeader)); claims != "" {
		fmt.Fprintf(&b, "SELECT set_config('request.jwt.claims', %s, true); ", sqlString(claims))
	}
	fmt.Fprintf(&b, "SELECT %s(%s, %d, %v); COMMIT;", t.ident, sqlString(t.rpc), t.limit, t.window)
	return `psql "$TARGET_DB" -c ` + shellQuote(b.String())
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
