package dialect

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// The draft's own examples parse as it describes them.
func TestDraftExamples(t *testing.T) {
	ps, err := ParseIETFPolicies(hdr(PolicyField, `"burst";q=100;w=60,"daily";q=1000;w=86400`))
	if err != nil || len(ps) != 2 || ps[0].Name != "burst" || ps[0].Quota != 100 || ps[0].Unit != "requests" || ps[0].Window != 60 || ps[1].Window != 86400 {
		t.Fatalf("policies: %+v %v", ps, err)
	}
	ps, err = ParseIETFPolicies(hdr(PolicyField, `"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:`))
	if err != nil || ps[0].Unit != "content-bytes" || len(ps[0].PartitionKey) == 0 {
		t.Fatalf("policy with qu and pk: %+v %v", ps, err)
	}
	// A list split over two fields is one list.
	ps, err = ParseIETFPolicies(hdr(PolicyField, `"permin";q=50;w=60`, PolicyField, `"perhr";q=1000;w=3600`))
	if err != nil || len(ps) != 2 {
		t.Fatalf("split list: %+v %v", ps, err)
	}
	ls, err := ParseIETFLimits(hdr(LimitField, `"default";r=50;t=30`))
	if err != nil || ls[0].Name != "default" || ls[0].Remaining != 50 || ls[0].Reset != 30 {
		t.Fatalf("limit: %+v %v", ls, err)
	}
	ls, err = ParseIETFLimits(hdr(LimitField, `"default";r=999;pk=:dHJpYWwxMjEzMjM=:`))
	if err != nil || ls[0].Reset != -1 || string(ls[0].PartitionKey) != "trial121323" {
		t.Fatalf("limit without t: %+v %v", ls, err)
	}
}

// Every MUST of the draft that a server can break is an error that names
// the field and what is wrong.
func TestInvalidFields(t *testing.T) {
	for _, c := range []struct {
		field, value, want string
	}{
		{PolicyField, `default;q=100;w=10`, "not a String"},
		{PolicyField, `"default";w=10`, `required "q"`},
		{PolicyField, `"default";q=-1;w=10`, "below 0"},
		{PolicyField, `"default";q=1.5;w=10`, "not an Integer"},
		{PolicyField, `"default";q=10;w=0`, "below 1"},
		{PolicyField, `"default";q=10;w="60"`, "not an Integer"},
		{PolicyField, `"default";q=10;qu=requests`, "qu is not a String"},
		{PolicyField, `"default";q=10;pk="abc"`, "not a Byte Sequence"},
		{PolicyField, `("a" "b");q=10`, "Inner List"},
		{PolicyField, `"default";q=10,`, "not a structured-field List"},
		{PolicyField, `limit=100, remaining=50`, "not a structured-field List"}, // draft-07 syntax
		{LimitField, `"default";t=30`, `required "r"`},
		{LimitField, `"default";r=5;t=-1`, "below 0"},
		{LimitField, `"default";r=5;t=2.5`, "not an Integer"},
		{LimitField, `"unterminated;r=5`, "not a structured-field List"},
	} {
		var err error
		if c.field == PolicyField {
			_, err = ParseIETFPolicies(hdr(c.field, c.value))
		} else {
			_, err = ParseIETFLimits(hdr(c.field, c.value))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %s: error %v, want one naming %s and saying %q", c.field, c.value, err, c.field, c.want)
		}
	}
	if _, err := ParseIETFLimits(http.Header{}); !errors.Is(err, ErrAbsent) {
		t.Errorf("absent field: %v", err)
	}
}

// Read pairs the limit with its policy; Match is IETF-1's q and w.
func TestReadAndMatch(t *testing.T) {
	h := http.Header{}
	if err := FormatIETF(h, "default", 20, 3*time.Second, 17, 2); err != nil {
		t.Fatal(err)
	}
	if got := h.Get(PolicyField) + " | " + h.Get(LimitField); got != `"default";q=20;w=3 | "default";r=17;t=2` {
		t.Fatalf("Format wrote %s", got)
	}
	f, err := ReadIETF(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Match(20, 3*time.Second); err != nil {
		t.Errorf("matching policy: %v", err)
	}
	if err := f.Match(500, 3*time.Second); err == nil || !strings.Contains(err.Error(), "q=20") {
		t.Errorf("q mismatch: %v", err)
	}
	if err := f.Match(20, time.Hour); err == nil || !strings.Contains(err.Error(), "w=3") {
		t.Errorf("w mismatch: %v", err)
	}
	now := time.Unix(1_800_000_000, 0)
	if f.Reset(now) != 1_800_000_002 || f.Limit.Remaining != 17 {
		t.Errorf("reset %d remaining %d", f.Reset(now), f.Limit.Remaining)
	}
	h.Set(LimitField, `"other";r=1;t=1`)
	if _, err := ReadIETF(h); err == nil || !strings.Contains(err.Error(), `"other"`) {
		t.Errorf("a limit naming an undeclared policy: %v", err)
	}
	nw := hdr(PolicyField, `"default";q=20`, LimitField, `"default";r=1`)
	f, err = ReadIETF(nw)
	if err != nil || f.Match(20, 3*time.Second) == nil || f.Reset(now) != -1 {
		t.Errorf("policy without w: %+v %v", f, err)
	}
}

// FuzzParse: any field value parses or fails with an error, never a panic,
// and whatever parses is within the draft's ranges.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`"default";q=100;w=10`, `"default";r=50;t=30`, `a, b;c=1`, `("x");q=1`, `"x";pk=:AA==:`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		h := hdr(PolicyField, v, LimitField, v)
		if ps, err := ParseIETFPolicies(h); err == nil {
			for _, p := range ps {
				if p.Quota < 0 || p.Window < 0 {
					t.Fatalf("out of range: %+v", p)
				}
			}
		}
		if ls, err := ParseIETFLimits(h); err == nil {
			for _, l := range ls {
				if l.Remaining < 0 || l.Reset < -1 {
					t.Fatalf("out of range: %+v", l)
				}
			}
		}
	})
}
