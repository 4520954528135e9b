package pgcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"
)

// ping opens and closes one connection.
func ping(ctx context.Context, dsn string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

// waitNoBackends polls until no process works in dataDir. PostgreSQL's
// processes all chdir into the data directory, and after a SIGKILL of the
// postmaster its orphaned backends exit on their own once they notice; a
// new postmaster refuses to start while they still hold shared memory.
func waitNoBackends(dataDir string, timeout time.Duration) error {
	want, err := filepath.EvalSymlinks(dataDir)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	n, _ := waitNone(timeout, 20*time.Millisecond, func() (int, error) {
		n := 0
		procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
		for _, p := range procs {
			if cwd, err := os.Readlink(p); err == nil && cwd == want {
				n++
			}
		}
		return n, nil
	})
	if n > 0 {
		return fmt.Errorf("pgcluster: %d PostgreSQL processes still in %s after %s", n, dataDir, timeout)
	}
	return nil
}

// waitNone polls count every so often until it is 0, it fails or timeout
// has passed: the last count (0 once there is none) and count's error.
func waitNone(timeout, every time.Duration, count func() (int, error)) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		n, err := count()
		if err != nil || n == 0 || time.Now().After(deadline) {
			return n, err
		}
		time.Sleep(every) // polling a condition with a deadline, not synchronisation by sleep
	}
}
