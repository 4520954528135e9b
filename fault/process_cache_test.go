package fault_test

import (
	"fmt"
	"testing"
	"time"
)

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
