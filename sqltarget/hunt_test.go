package sqltarget

import (
	"context"
	"testing"
	"time"

	"github.com/rlspec/rlspec/racehunt/sqlhunt"

	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// TestHuntSQL is the race hunter on spec/004's function: the shipped one
// clean over 60 workloads, each faulty variant found by every one of 5
// searches and its workload failing again on replay (the 20-seed figures
// come from rlspec race, README).
func TestHuntSQL(t *testing.T) {
	const limit = 3
	hunt := func(tr *Transport, seed uint64, checks int) sqlhunt.SQLResult {
		t.Helper()
		res, err := sqlhunt.HuntSQL(context.Background(), tr, sqlhunt.SQLHuntOptions{
			Limit: limit, Window: time.Minute, Checks: checks, SearchSeed: seed, Repeat: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := hunt(newTransport(t, spec004.Shipped, limit), 1, 60); res.Found {
		t.Fatalf("shipped: %v\n%s", res.Violations, res.Workload)
	}
	// Every workload uses fresh keys: the searches share one database.
	for _, v := range []spec004.Variant{spec004.NoRetry, spec004.ResetRace} {
		tr := newTransport(t, v, limit)
		for seed := uint64(1); seed <= 5; seed++ {
			res := hunt(tr, seed*1000, 100)
			if !res.Found || res.Reproduced != res.Repeat {
				t.Fatalf("%s, search seed %d: found %v, reproduced %d/%d", v, seed*1000, res.Found, res.Reproduced, res.Repeat)
			}
		}
	}
}
