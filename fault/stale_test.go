package fault_test

import (
	"fmt"
	"testing"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
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
