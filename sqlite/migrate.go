package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one numbered schema step with its up and down SQL.
type migration struct {
	version  int
	up, down string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	byVersion := map[int]*migration{}
	for _, e := range entries {
		name := e.Name()
		num, rest, ok := strings.Cut(name, "_")
		if !ok {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.(up|down).sql", name)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: bad version", name)
		}
		text, err := fs.ReadFile(migrationFS, "migrations/"+name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		m := byVersion[v]
		if m == nil {
			m = &migration{version: v}
			byVersion[v] = m
		}
		switch {
		case strings.HasSuffix(rest, ".up.sql"):
			m.up = string(text)
		case strings.HasSuffix(rest, ".down.sql"):
			m.down = string(text)
		default:
			return nil, fmt.Errorf("migration %s: neither .up.sql nor .down.sql", name)
		}
	}
	ms := make([]migration, 0, len(byVersion))
	for _, m := range byVersion {
		if m.up == "" || m.down == "" {
			return nil, fmt.Errorf("migration %d: needs both up and down", m.version)
		}
		ms = append(ms, *m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration versions are not 1..n: missing %d", i+1)
		}
	}
	return ms, nil
}

// LatestVersion is the schema version the embedded migrations lead to.
func LatestVersion() int {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// Migrate moves the schema of db to version target (0 = empty) by applying
// the embedded up or down migrations in one IMMEDIATE transaction, so several
// processes opening one file at once migrate it exactly once. The version is
// kept in PRAGMA user_version.
func Migrate(ctx context.Context, db *sql.DB, target int) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if target < 0 || target > len(ms) {
		return fmt.Errorf("migrate: version %d out of range 0..%d", target, len(ms))
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	rollback := func(err error) error {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	var cur int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
		return rollback(fmt.Errorf("migrate: read version: %w", err))
	}
	if cur > len(ms) {
		return rollback(fmt.Errorf("migrate: database schema version %d is newer than this build (%d)", cur, len(ms)))
	}
	for cur < target {
		m := ms[cur]
		if _, err := conn.ExecContext(ctx, m.up); err != nil {
			return rollback(fmt.Errorf("migrate up %d: %w", m.version, err))
		}
		cur++
	}
	for cur > target {
		m := ms[cur-1]
		if _, err := conn.ExecContext(ctx, m.down); err != nil {
			return rollback(fmt.Errorf("migrate down %d: %w", m.version, err))
		}
		cur--
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(cur)); err != nil {
		return rollback(fmt.Errorf("migrate: set version: %w", err))
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return rollback(fmt.Errorf("migrate: commit: %w", err))
	}
	return nil
}
