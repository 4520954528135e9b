// Package spec004 ships spec/004's rate limiter as SQL: the single-row
// rpc_rate_limits table, a Supabase-style auth.uid() that reads the caller
// from request.jwt.claims, and check_rate_limit as the document describes
// it — plus faulty variants of the function for rlspec's self-tests. Install
// writes one variant into a PostgreSQL database.
package spec004

import (
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/clause"
)

var (
	//go:embed schema.sql
	schemaSQL string
	//go:embed check_rate_limit.sql
	shippedSQL string
	//go:embed fault_no_retry.sql
	noRetrySQL string
	//go:embed fault_reset_race.sql
	resetRaceSQL string
)

// Variant names one version of check_rate_limit.
type Variant string

// The variants. Shipped is spec/004's function as documented.
const (
	Shipped   Variant = ""
	NoRetry   Variant = "no-retry"
	ResetRace Variant = "reset-race"
)

// VariantInfo says what a faulty variant breaks.
type VariantInfo struct {
	Variant     Variant
	Clauses     clause.Refs
	Description string
	// Scenarios are the acceptance scenarios that must fail against the
	// variant (the self-test's demand); the race hunter must find it too.
	Scenarios []string
	// patch is the fault's file: the region of the shipped function it
	// replaces ("-- rlspec:replaces NAME") and what stands there instead;
	// "" for the shipped function.
	patch string
}

// variants is a constant table, never written.
var variants = []VariantInfo{
	{Shipped, nil, "spec/004's check_rate_limit v2.0 as documented", nil, ""},
	{NoRetry, clause.Of(clause.FW4), "UPDATE-then-INSERT without the unique_violation retry: the first requests of a user race their own INSERT and error", []string{"FW-4-01"}, noRetrySQL},
	{ResetRace, clause.Of(clause.FW3), "the window's expiry is read and the reset written in two statements without a lock: callers at the boundary each reset", []string{"FW-3-02"}, resetRaceSQL},
}

// Variants lists every variant, the shipped one first.
func Variants() []VariantInfo {
	out := make([]VariantInfo, len(variants))
	copy(out, variants)
	return out
}

// ParseVariant accepts "", "none" or "shipped" for the shipped function and
// every faulty variant's name.
func ParseVariant(s string) (Variant, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "shipped" {
		s = ""
	}
	for _, v := range variants {
		if string(v.Variant) == s {
			return v.Variant, nil
		}
	}
	var names []string
	for _, v := range variants[1:] {
		names = append(names, string(v.Variant))
	}
	sort.Strings(names)
	return "", fmt.Errorf("unknown spec/004 variant %q (known: shipped, %s)", s, strings.Join(names, ", "))
}

// Install creates the schema and the variant's check_rate_limit in the
// database conn is connected to. It is idempotent: a second Install of
// another variant replaces the function and keeps the table.
func Install(ctx context.Context, conn *pgx.Conn, v Variant) error {
	fn, err := FunctionSQL(v)
	if err != nil {
		return fmt.Errorf("install spec/004: %w", err)
	}
	if _, err := conn.Exec(ctx, schemaSQL); err != nil {
		return fmt.Errorf("install spec/004 schema: %w", err)
	}
	if _, err := conn.Exec(ctx, fn); err != nil {
		return fmt.Errorf("install spec/004 check_rate_limit: %w", err)
	}
	return nil
}

// FunctionSQL is the CREATE FUNCTION statement of variant v: the shipped
// function, or the shipped function with the region its fault replaces
// spliced out (each fault is one place: its file says only what differs).
func FunctionSQL(v Variant) (string, error) {
	for _, info := range variants {
		if info.Variant != v {
			continue
		}
		if info.patch == "" {
			return shippedSQL, nil
		}
		return splice(shippedSQL, info.patch)
	}
	return "", fmt.Errorf("unknown variant %q", v)
}

// splice replaces, in shipped, the lines from "-- rlspec:NAME begin" to
// "-- rlspec:NAME end" with patch, whose line "-- rlspec:replaces NAME"
// names the region.
func splice(shipped, patch string) (string, error) {
	const directive = "-- rlspec:replaces "
	i := strings.Index(patch, directive)
	if i < 0 {
		return "", fmt.Errorf("fault file names no region (%q)", directive+"NAME")
	}
	name, _, _ := strings.Cut(patch[i+len(directive):], "\n")
	name = strings.TrimSpace(name)
	begin, end := "-- rlspec:"+name+" begin", "-- rlspec:"+name+" end"
	b, e := strings.Index(shipped, begin), strings.Index(shipped, end)
	if b < 0 || e < b {
		return "", fmt.Errorf("the shipped function has no region %q", name)
	}
	b = strings.LastIndex(shipped[:b], "\n") + 1
	e += len(end)
	if nl := strings.IndexByte(shipped[e:], '\n'); nl >= 0 {
		e += nl + 1
	}
	return shipped[:b] + patch + shipped[e:], nil
}
