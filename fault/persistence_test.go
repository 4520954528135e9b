package fault_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlspec/rlspec/profile"
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

// processCacheDetector alternates 20 requests of one key over two servers
// on one file in profile p, with a quota of 10: a cache per server lets
// more through.
func processCacheDetector(p profile.Name) detector {
	return func(t *testing.T, mk mkServer) (bool, string) {
		cfg := onOneFile(t, p, 10, time.Minute)
		servers := []tserver{mk(cfg), mk(cfg)}
		ok := 0
		for i := range 20 {
			_, n := servers[i%2].spend(1, user("u", ""))
			ok += n
		}
		return ok > 10, fmt.Sprintf("%s: %d of 20 allowed across two replicas with a quota of 10", p, ok)
	}
}
