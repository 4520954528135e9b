package containers

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/internal/testctx"
)

// TestRestartKeepsSpentQuota: Restart brings the reference image back at the
// same URL with its spent quota (PS-1), and the memory-quota fault, which
// keeps the quota in the process, loses it: the check can fail.
func TestRestartKeepsSpentQuota(t *testing.T) {
	t.Parallel()
	img := buildReference(t)
	for _, tc := range []struct {
		fault string
		want  int64 // Remaining of the first request after two and a restart
	}{{"", 2}, {"memory-quota", 4}} {
		t.Run("fault="+tc.fault, func(t *testing.T) {
			opts := []Option{runLabel(t), WithLimit(5), WithWindow(time.Hour)}
			if tc.fault != "" {
				opts = append(opts, WithFault(tc.fault))
			}
			tg := start(t, img, opts...)
			bucket := bodytmpl.NewDeviceBucket()
			post(t, tg.URL, bucket)
			post(t, tg.URL, bucket)
			ctx := testctx.Context(t)
			if err := tg.Restart(ctx); err != nil {
				t.Fatal(err)
			}
			if code, rl := post(t, tg.URL, bucket); code != 200 || rl.Remaining != tc.want {
				t.Fatalf("after the restart: %d, Remaining %d; want 200, Remaining %d", code, rl.Remaining, tc.want)
			}
		})
	}
}
