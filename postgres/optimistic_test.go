package postgres

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// Every shape's statement numbers its parameters $1 … $n, n its number of
// arguments, each once with the type of the argument at its place (the
// text is shared by shape; the arguments are each attempt's own).
func TestStatementParametersMatchArguments(t *testing.T) {
	param := regexp.MustCompile(`\$([0-9]+)(::[a-z]+)?`)
	st := model.State{Found: true, Remaining: 3, Reset: 9, Log: "1,2"}
	ride := reference.Ride{ID: "r", BodyBytes: 7, Received: 11}
	for _, c := range []struct {
		name string
		tx   optTx
	}{
		{"check", optTx{bucket: "b", expect: st}},
		{"update", optTx{bucket: "b", expect: st, put: &st}},
		{"insert", optTx{bucket: "b", put: &st}},
		{"update and two rides", optTx{bucket: "b", expect: st, put: &st, rides: []reference.Ride{ride, ride}}},
		{"insert and a ride", optTx{bucket: "b", put: &st, rides: []reference.Ride{ride}}},
	} {
		for range 2 { // built, then from the cache
			sql, args := c.tx.statement()
			seen := map[int]string{}
			for _, m := range param.FindAllStringSubmatch(sql, -1) {
				k, _ := strconv.Atoi(m[1])
				if typ, ok := seen[k]; ok && k != 1 {
					t.Errorf("%s: $%d%s appears twice (first as $%d%s)", c.name, k, m[2], k, typ)
				}
				seen[k] = m[2]
			}
			if len(seen) != len(args) {
				t.Errorf("%s: %d parameters, %d arguments\n%s", c.name, len(seen), len(args), sql)
			}
			for k := 1; k <= len(args); k++ {
				if _, ok := seen[k]; !ok {
					t.Errorf("%s: no $%d for argument %v", c.name, k, args[k-1])
				}
			}
			if args[0] != "b" {
				t.Errorf("%s: $1 is %v, want the bucket", c.name, args[0])
			}
		}
	}
	sql, args := (&optTx{bucket: "b", expect: st, put: &model.State{Found: true, Remaining: 2, Reset: 9, Log: "1,2,3"}}).statement()
	m := regexp.MustCompile(`SET \([^)]*\) = \(\$([0-9]+)`).FindStringSubmatch(sql)
	if m == nil {
		t.Fatalf("no SET in %s", sql)
	}
	k, _ := strconv.Atoi(m[1])
	if args[k-1] != 2 {
		t.Errorf("the update writes $%d = %v, want the new Remaining 2", k, args[k-1])
	}
}

// BenchmarkOptimisticStatement is one decision's statement and arguments:
// a sliding log of 80 times updated, one ride.
func BenchmarkOptimisticStatement(b *testing.B) {
	st := model.State{Found: true, Remaining: 20, Reset: 1_800_000_060}
	for i := range 80 {
		st.Log += strconv.Itoa(1_800_000_000_000+i*750) + ","
	}
	tx := optTx{bucket: "user:42", expect: st, put: &st, rides: []reference.Ride{{ID: "r", BodyBytes: 7, Received: 11}}}
	b.ReportAllocs()
	for b.Loop() {
		tx.statement()
	}
}
