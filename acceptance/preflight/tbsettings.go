package preflight

import (
	"fmt"
	"math"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
)

// bucketMismatch is CheckSettings for PROFILE=token-bucket: the first
// response of a fresh key says Limit = RL_BURST (TB-7), and its Reset (when
// the bucket is full again) lies at most ⌈B/R⌉ + 1 s ahead; a Reset further
// away says the bucket refills slower than RL_RATE.
func bucketMismatch(tc service.Config, rl dialect.RateLimit, ex *httpclient.Exchange) error {
	if rl.Limit != int64(tc.Burst) {
		return fmt.Errorf("RL_BURST=%d but the service answers %s: %d on the first request of a fresh key; set RL_BURST=%d",
			tc.Burst, ex.Answer.FieldName(dialect.FieldLimit), rl.Limit, rl.Limit)
	}
	most := time.Duration(math.Ceil(float64(tc.Burst)/tc.Rate))*time.Second + time.Second
	if left := untilReset(rl, ex); left > most+dateSlack {
		return fmt.Errorf("RL_RATE=%g but the service answers %s: %d, %s after the first request of a fresh key, where a bucket refilled at %g/s is full within %s; set RL_RATE to the service's refill rate",
			tc.Rate, ex.Answer.FieldName(dialect.FieldReset), rl.Reset, left.Round(time.Second), tc.Rate, most)
	}
	return nil
}

// queueMismatch is CheckSettings for PROFILE=leaky-bucket: the first
// response of an idle key says Limit = RL_BURST + 1 (the queue's places
// and the one in service), when RL_BURST is known.
func queueMismatch(tc service.Config, rl dialect.RateLimit, ex *httpclient.Exchange) error {
	if tc.Burst > 0 && rl.Limit != int64(tc.Burst)+1 {
		return fmt.Errorf("RL_BURST=%d but the service answers %s: %d (B + 1) on the first request of an idle key; set RL_BURST=%d",
			tc.Burst, ex.Answer.FieldName(dialect.FieldLimit), rl.Limit, rl.Limit-1)
	}
	return nil
}
