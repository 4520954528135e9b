package selftest

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rlspec/rlspec/racehunt/sqlhunt"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// sqlApplicableSkips are the scenarios spec/004's function cannot be
// checked by, SKIPPED with their reason even against the shipped function:
// FW-5-01 checks rate-limit headers, which a BOOLEAN does not carry.
var sqlApplicableSkips = []string{"FW-5-01"}

// SQLRow is one variant of spec/004's function (TARGET_SQL) in the
// self-test: the fixed-window suite and the SQL race hunt against it.
type SQLRow struct {
	spec004.VariantInfo
	Acceptance AcceptanceResult
	Race       sqlhunt.SQLResult
	Missed     []string // scenarios of the variant that passed
}

// OK reports whether the row met its demands: the shipped function passes
// everything but the inapplicable skips and races clean; a faulty variant
// fails its scenarios and the race hunter finds it.
func (r SQLRow) OK() bool {
	if r.Variant == spec004.Shipped {
		extra := slices.DeleteFunc(slices.Clone(r.Acceptance.SkippedIDs), func(id string) bool { return slices.Contains(sqlApplicableSkips, id) })
		return r.Acceptance.Passed > 0 && r.Acceptance.Failed == 0 && len(extra) == 0 && !r.Race.Found
	}
	return len(r.Missed) == 0 && r.Race.Found
}

// RunSQL runs every variant of spec/004's function, each in a throwaway
// PostgreSQL (pgcluster.ErrNotInstalled when there is none), with checks
// race workloads per hunt.
func RunSQL(ctx context.Context, checks int, progress io.Writer) ([]SQLRow, error) {
	var rows []SQLRow
	for _, v := range spec004.Variants() {
		row, err := runSQLVariant(ctx, v, checks)
		if err != nil {
			return rows, fmt.Errorf("spec/004 %s: %w", variantName(v.Variant), err)
		}
		fmt.Fprintf(progress, "selftest: spec/004 %s: acceptance %d failed, %d skipped; race found %v (%s)\n",
			variantName(v.Variant), row.Acceptance.Failed, row.Acceptance.Skipped, row.Race.Found, row.Race.Duration.Round(time.Millisecond))
		rows = append(rows, row)
	}
	return rows, nil
}

func runSQLVariant(ctx context.Context, v spec004.VariantInfo, checks int) (SQLRow, error) {
	row := SQLRow{VariantInfo: v}
	sql, err := embedded.StartSQL(ctx, v.Variant)
	if err != nil {
		return row, err
	}
	defer sql.Close()
	tc := service.DefaultConfig()
	tc.SQL, tc.DB, tc.Limit, tc.Window = "check_rate_limit", sql.DSN, 5, time.Minute
	tc.SQLDefaults(false)
	rep, err := acceptance.Run(ctx, acceptance.Config{Target: tc, Name: sql.Description}, acceptance.WithoutReports())
	if err != nil {
		return row, err
	}
	row.Acceptance = tally(rep)
	for _, id := range v.Scenarios {
		if !slices.Contains(row.Acceptance.FailedIDs, id) {
			row.Missed = append(row.Missed, id)
		}
	}
	tc.Limit = 3
	tr, err := sqltarget.New(ctx, sqltarget.ConfigFor(tc))
	if err != nil {
		return row, err
	}
	defer tr.Close()
	row.Race, err = sqlhunt.HuntSQL(ctx, tr, sqlhunt.SQLHuntOptions{Limit: tc.Limit, Window: tc.Window, Checks: checks, Repeat: 1})
	return row, err
}

func variantName(v spec004.Variant) string {
	if v == spec004.Shipped {
		return "shipped"
	}
	return string(v)
}

// WriteSQL prints the SQL rows under the matrix.
func WriteSQL(w io.Writer, rows []SQLRow) {
	fmt.Fprintln(w, "\nspec/004's function (TARGET_SQL, a throwaway PostgreSQL per variant):")
	fmt.Fprintf(w, "  %-10s %-6s %-36s %-30s %s\n", "VARIANT", "CLAUSE", "ACCEPTANCE", "RACE", "VERDICT")
	for _, r := range rows {
		acc := fmt.Sprintf("%d passed, %d failed, %d skipped", r.Acceptance.Passed, r.Acceptance.Failed, r.Acceptance.Skipped)
		if len(r.Acceptance.FailedIDs) > 0 {
			acc = "failed " + strings.Join(r.Acceptance.FailedIDs, ",")
		}
		race := fmt.Sprintf("clean in %d workloads", r.Race.Checks)
		if r.Race.Found {
			race = fmt.Sprintf("found after %d clean (%s)", r.Race.Checks, r.Race.Detected.Round(time.Millisecond))
		}
		verdict := "OK"
		switch {
		case !r.OK() && r.Variant == spec004.Shipped:
			verdict = "REFERENCE FAILED"
		case !r.OK():
			verdict = "MISSED " + strings.Join(r.Missed, ",")
		case r.Variant != spec004.Shipped:
			verdict = "CAUGHT"
		}
		clauses := "-"
		if len(r.Clauses) > 0 {
			clauses = r.Clauses.String()
		}
		fmt.Fprintf(w, "  %-10s %-6s %-36s %-30s %s\n", variantName(r.Variant), clauses, acc, race, verdict)
	}
}
