package sqltarget

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/sqltarget/spec004"
)

func TestNewRejectsBadSettings(t *testing.T) {
	dsn := database(t, spec004.Shipped)
	ctx := context.Background()
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{DSN: dsn, Function: "check_rate_limit", Limit: 5, Window: 3 * time.Second}, "whole minutes"},
		{Config{DSN: dsn, Function: "no_such_fn", Limit: 5, Window: time.Minute}, "no such function"},
		{Config{DSN: dsn, Function: "check_rate_limit", Limit: 0, Window: time.Minute}, "RL_LIMIT"},
		{Config{DSN: dsn, Function: "", Limit: 5, Window: time.Minute}, "names no function"},
		{Config{DSN: dsn, Function: "pg_sleep", Limit: 5, Window: time.Minute}, "takes 1 arguments"},
		{Config{DSN: dsn, Function: `check_rate_limit"; DROP TABLE rpc_rate_limits; --`, Limit: 5, Window: time.Minute}, "TARGET_SQL="},
	}
	for _, c := range cases {
		tr, err := New(ctx, c.cfg)
		if err == nil {
			tr.Close()
			t.Errorf("%+v: accepted", c.cfg)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q does not say %q", c.cfg.Function, err, c.want)
		}
	}
	if _, err := New(ctx, Config{DSN: dsn, Function: "check_rate_limit", Limit: 5, Window: time.Minute}, WithMaxConns(0)); err == nil {
		t.Error("WithMaxConns(0) accepted")
	}
}

func TestPasswordNeverInErrors(t *testing.T) {
	_, err := New(context.Background(), Config{DSN: "postgres://u:s3cretpw@127.0.0.1:1/db?connect_timeout=1", Function: "f", Limit: 1, Window: time.Minute})
	if err == nil {
		t.Fatal("connecting to port 1 succeeded")
	}
	if strings.Contains(err.Error(), "s3cretpw") {
		t.Fatalf("error shows the password: %v", err)
	}
}

func TestCallerID(t *testing.T) {
	u := "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
	if CallerID(u) != strings.ToLower(u) {
		t.Errorf("a UUID key is not used as is: %s", CallerID(u))
	}
	a, b := CallerID("device-1"), CallerID("device-2")
	if a == b || a != CallerID("device-1") || !isUUID(a) || a[14] != '5' {
		t.Errorf("hashed ids: %s %s", a, b)
	}
}

func TestCheckAgingNeedsSpec004sTable(t *testing.T) {
	tr := newTransport(t, spec004.Shipped, 5)
	ctx := context.Background()
	if err := tr.CheckAging(ctx); err != nil {
		t.Fatalf("spec/004's schema: %v", err)
	}
	if _, err := tr.pool.Exec(ctx, `ALTER TABLE rpc_rate_limits RENAME TO other_limits`); err != nil {
		t.Fatal(err)
	}
	if err := tr.CheckAging(ctx); err == nil || !strings.Contains(err.Error(), "rpc_rate_limits(user_id, rpc_name, window_start)") {
		t.Fatalf("no table: %v", err)
	}
}
