package fault_test

import (
	"database/sql"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/fault/slidinglog"
)

// A starved server may answer a concurrent batch one request after
// another, none in flight beside another: the check-then-act faults still
// race requests that came on other connections within fault.RaceWindow,
// and leave a client's one-after-another requests on one connection alone.
func TestStaleStoreRacesOtherConnections(t *testing.T) {
	for _, tc := range []struct {
		f     fault.Name
		conns int
		want  int // allowed of 5 requests one after another, N = 3
	}{
		{fault.None, 5, 3},
		{fault.None, 1, 3},
		{slidinglog.SLCheckThenRecord, 5, 5},
		{slidinglog.SLCheckThenRecord, 1, 3},
	} {
		t.Run(fmt.Sprintf("%s/%d-conns", tc.f, tc.conns), func(t *testing.T) {
			s := slServer(func(m func(*fakeserver.Config)) tserver { return newTest(t, tc.f, m) })
			ok := 0
			for i := range 5 {
				if s.do(user("u", fmt.Sprintf("192.0.2.1:%d", 1000+i%tc.conns))).Code == 200 {
					ok++
				}
			}
			if ok != tc.want {
				t.Fatalf("%d of 5 allowed, want %d", ok, tc.want)
			}
		})
	}
}

// A write the store did not make (TARGET_DB seeding, as AC4-02 expires a
// window before each round of its race) starts the race again from the
// state it wrote: checks never read a state from before it.
func TestStaleStoreRacesFromAnOutsideWrite(t *testing.T) {
	for _, tc := range []struct {
		f    fault.Name
		want int64 // the third request's Remaining, N = 3
	}{
		{fault.None, 1},
		{prd.ResetRaceName, 2}, // refilled again: the race was seen
	} {
		t.Run(fmt.Sprint(tc.f), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rl.db")
			s := newTest(t, tc.f, func(c *fakeserver.Config) { c.DBPath, c.Limit = path, 3 })
			bucket := devBucket(1)
			on := func(port int) *httptest.ResponseRecorder {
				return s.do(call{Body: rideBody(bucket), Remote: fmt.Sprintf("192.0.2.1:%d", port)})
			}
			if w := on(1001); w.Code != 200 || remaining(w) != 2 {
				t.Fatalf("first ride: %d, Remaining %d", w.Code, remaining(w))
			}
			db, err := sql.Open("sqlite", "file:"+path+"?mode=rw")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("UPDATE rate_limit_buckets SET reset_utc = ?", s.clk.Now().Unix()-1); err != nil {
				t.Fatal(err)
			}
			if w := on(1002); w.Code != 200 || remaining(w) != 2 {
				t.Fatalf("first ride after the window expired: %d, Remaining %d", w.Code, remaining(w))
			}
			if w := on(1003); w.Code != 200 || remaining(w) != tc.want {
				t.Fatalf("second ride after the window expired, on another connection: %d, Remaining %d, want %d", w.Code, remaining(w), tc.want)
			}
		})
	}
}
