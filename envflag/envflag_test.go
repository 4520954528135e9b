package envflag

import (
	"testing"
	"time"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"TARGET_ULR", "TARGET_URL", 1}, {"TAG", "TAGS", 1}, {"", "ABC", 3}, {"KITTEN", "SITTING", 3}, {"SAME", "SAME", 0}} {
		if d := editDistance(tc.a, tc.b); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"3600": time.Hour, "3s": 3 * time.Second, " 90 ": 90 * time.Second, "1h30m": 90 * time.Minute} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-", "1x", "99999999999999999999"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) accepted", in)
		}
	}
}
