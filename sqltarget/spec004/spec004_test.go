package spec004

import (
	"strings"
	"testing"
)

// TestVariantsSplice: each faulty variant is the shipped function with one
// region replaced: it keeps the shipped head and tail, loses the region's
// shipped text and carries its fault's.
func TestVariantsSplice(t *testing.T) {
	shipped, err := FunctionSQL(Shipped)
	if err != nil || shipped != shippedSQL {
		t.Fatalf("shipped: %v", err)
	}
	for _, v := range Variants()[1:] {
		sql, err := FunctionSQL(v.Variant)
		if err != nil {
			t.Fatalf("%s: %v", v.Variant, err)
		}
		if sql == shipped || !strings.Contains(sql, v.patch) {
			t.Errorf("%s: the fault's text is not in its function", v.Variant)
		}
		head := shipped[:strings.Index(shipped, "BEGIN")]
		if !strings.HasPrefix(sql, head) || !strings.HasSuffix(sql, "RETURN v_count <= p_max_calls;\nEND\n$$;\n") {
			t.Errorf("%s: the splice lost the function's head or tail:\n%s", v.Variant, sql)
		}
		if strings.Count(sql, "CASE WHEN window_start < v_now - v_window THEN 1") > strings.Count(v.patch, "CASE WHEN window_start < v_now - v_window THEN 1") {
			t.Errorf("%s: the shipped region is still there:\n%s", v.Variant, sql)
		}
	}
	if _, err := FunctionSQL("teleport"); err == nil {
		t.Error("an unknown variant has SQL")
	}
	if _, err := splice(shippedSQL, "-- no directive\n"); err == nil {
		t.Error("a patch without a region spliced")
	}
	if _, err := splice(shippedSQL, "-- rlspec:replaces nowhere\n"); err == nil {
		t.Error("a patch of a missing region spliced")
	}
}
