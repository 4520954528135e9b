package selftest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// TestRunSQL: the shipped function passes (FW-5-01 skipped as
// inapplicable) and races clean; every faulty variant is caught by its
// scenarios and by the race hunter.
func TestRunSQL(t *testing.T) {
	var progress bytes.Buffer
	rows, err := RunSQL(context.Background(), 20, &progress)
	if errors.Is(err, pgcluster.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(spec004.Variants()) {
		t.Fatalf("%d rows for %d variants", len(rows), len(spec004.Variants()))
	}
	for _, r := range rows {
		if !r.OK() {
			t.Errorf("%s: acceptance %+v, race found %v, missed %v", variantName(r.Variant), r.Acceptance, r.Race.Found, r.Missed)
		}
	}
	var out bytes.Buffer
	WriteSQL(&out, rows)
	if !strings.Contains(out.String(), "no-retry") || strings.Count(out.String(), "CAUGHT") != len(rows)-1 {
		t.Errorf("table:\n%s", out.String())
	}
}
