package fault_test

import (
	"fmt"
	"testing"
	"time"
)

// memoryQuotaDetector spends 2 of a key's 3 units in profile p, restarts
// (a second server on the first one's file) and counts what the key gets
// after: 1 more from a store that kept the spend, 3 from a forgetful one.
func memoryQuotaDetector(p profile.Name) detector {
	return func(t *testing.T, mk mkServer) (bool, string) {
		cfg := onOneFile(t, p, 3, 10*time.Second)
		first := mk(cfg)
		first.spend(2, user("u", ""))
		first.Close()
		_, ok := mk(cfg).spend(3, user("u", ""))
		return ok > 1, fmt.Sprintf("%s: %d of 3 allowed after 2 spends and a restart", p, ok)
	}
}
