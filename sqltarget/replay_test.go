package sqltarget

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// TestCommandReplaysTheCall runs the printed psql command: it makes the
// same call as the caller (with N=1 the first is allowed, the second
// refused) and names the database only as $TARGET_DB.
func TestCommandReplaysTheCall(t *testing.T) {
	dsn := database(t, spec004.Shipped)
	tr, err := New(context.Background(), Config{DSN: dsn, Function: "check_rate_limit", Limit: 1, Window: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	h := http.Header{}
	h.Set("X-User-ID", "it's-me")
	cmd := tr.Command(h)
	if strings.Contains(cmd, dsn) || !strings.Contains(cmd, `"$TARGET_DB"`) {
		t.Fatalf("command shows the database: %s", cmd)
	}
	psql := filepath.Join(pg.Cluster(t).BinDir(), "psql")
	for i, want := range []string{"t", "f"} {
		c := exec.Command("bash", "-c", strings.Replace(cmd, "psql ", psql+" -tA -q ", 1))
		c.Env = append(c.Environ(), "TARGET_DB="+dsn)
		out, err := c.CombinedOutput()
		if got := strings.Fields(string(out)); err != nil || len(got) == 0 || got[len(got)-1] != want {
			t.Fatalf("call %d: %q, %v; want %q last\n%s", i+1, out, err, want, cmd)
		}
	}
}
