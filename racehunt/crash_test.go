package racehunt

import (
	"context"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/reference/storetest"
)

// Issue 27 item 7: the reference on PostgreSQL whose database server is
// killed with SIGKILL and restarted (fakeserver's
// TestCrashSafetyPostgresDatabaseKilled shows nothing acknowledged is lost
// and that it fails closed while the database is down) is, after each
// restart, clean under the race hunter: the crash left no state that
// decides otherwise than the model.
func TestHuntCleanAfterPostgresCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns and kills PostgreSQL")
	}
	t.Parallel()
	c := storetest.Postgres(t)
	url := faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) {
		cfg.Limit, cfg.Window = 3, 2*time.Second
		cfg.Store, cfg.DatabaseURL = fakeserver.StorePostgres, c.DSN("postgres")
	})
	ctx := context.Background()
	live, err := NewLive(ctx, liveConfig(), []string{url})
	if err != nil {
		t.Fatal(err)
	}
	workloads := 0
	for cycle := range 3 {
		if err := c.Kill(); err != nil {
			t.Fatalf("cycle %d: kill PostgreSQL: %v", cycle, err)
		}
		if err := c.Restart(ctx); err != nil {
			t.Fatalf("cycle %d: restart PostgreSQL: %v", cycle, err)
		}
		res, err := Hunt(ctx, live, HuntOptions{Checks: 4, NoFailFile: true, ReportDir: t.TempDir(), Gen: GenOptions{MaxBursts: 3}})
		if err != nil {
			t.Fatalf("cycle %d: %v", cycle, err)
		}
		if res.Found {
			t.Fatalf("cycle %d: violation on the reference after a crash: %v\n%s", cycle, res.Violations, res.Workload)
		}
		workloads += res.Checks
	}
	t.Logf("3 crash cycles, %d workloads clean after them", workloads)
}
