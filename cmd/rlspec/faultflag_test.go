package main

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// -fault is read as the target takes it: a fault of the embedded
// reference, or with TARGET_SQL a variant of spec/004's function, each
// with its own sentence when the name is not one.
func TestFaultFlagReadings(t *testing.T) {
	var f faultFlag
	if err := f.Set("check-then-act"); err != nil {
		t.Fatal(err)
	}
	if n, err := f.Fault(); err != nil || n != prd.CheckThenActName {
		t.Fatalf("Fault() = %q, %v", n, err)
	}
	sql := service.Config{DB: service.DBEmbedded}
	if _, err := f.Variant(sql, ""); err == nil || !strings.Contains(err.Error(), "FAULT with TARGET_SQL") {
		t.Fatalf("a reference fault as a variant: %v", err)
	}
	_ = f.Set("no-retry")
	if v, err := f.Variant(sql, ""); err != nil || v != spec004.NoRetry {
		t.Fatalf("Variant() = %q, %v", v, err)
	}
	if _, err := f.Fault(); err == nil || !strings.Contains(err.Error(), "unknown fault") {
		t.Fatalf("a variant as a reference fault: %v", err)
	}
	if _, err := f.Variant(service.Config{DB: "postgres://db/app"}, ""); err == nil || !strings.Contains(err.Error(), "TARGET_DB=embedded") {
		t.Fatalf("a faulty variant on the user's database: %v", err)
	}
	if _, err := f.Variant(sql, "postgres"); err == nil || !strings.Contains(err.Error(), "unset STORE") {
		t.Fatalf("STORE with TARGET_SQL: %v", err)
	}
	var none faultFlag
	if n, err := none.Fault(); err != nil || n != fault.None {
		t.Fatalf("unset: %q, %v", n, err)
	}
	if v, err := none.Variant(sql, ""); err != nil || v != spec004.Shipped {
		t.Fatalf("unset variant: %q, %v", v, err)
	}
}
