package acceptance

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/service"
)

// dateSlack is how far a correct service's Reset may lie beyond its window
// from the harness's view: the Date header's and Reset's whole seconds.
const dateSlack = 2 * time.Second

// checkSettings sends one request on a fresh bucket (a fresh device_bucket
// no scenario uses; a fresh key of the other profiles) to the enabled
// target. Its answer (HTTP 200) settles what the dialect settings leave to
// auto (dialect.Detect: the Detection says what and why), is held to the
// dialect settings given explicitly (a contradiction is one sentence, exit
// 2), and its rate-limit fields are compared with RL_LIMIT and RL_WINDOW. A
// limit or window contradiction is a settings mismatch only when the
// response is otherwise a consistent first response (HTTP 200, Limit =
// Remaining + 1): a service that lies in its headers is left to the
// scenarios (FR-7), which report it as a failure.
func checkSettings(ctx context.Context, tc service.Config, explicit dialect.Settings, body *service.Body, timeout time.Duration) (dialect.Detection, error) {
	det := dialect.Detection{Settings: tc.Answer()}
	b, err := body.Render(service.Bucket(service.NewDeviceBucket()))
	if err != nil {
		return det, err
	}
	req := service.Request{Body: b}
	if tc.Profile != profile.PRD {
		key, err := tc.RenderKey(service.NewUUID())
		if err != nil {
			return det, err
		}
		req = tc.KeyedRequest(key) // a fresh key of the profile, with its method
	}
	c := service.NewClient(tc, tc.URL, service.WithTimeout(timeout))
	defer c.Close()
	ex := c.Do(ctx, req)
	if ex.Err != nil || ex.Status != http.StatusOK {
		return det, nil
	}
	r := dialect.Response{Status: ex.Status, Header: ex.RespHeader, Body: ex.RespBody, Received: ex.Received}
	if err := explicit.Contradiction(r); err != nil {
		return det, err
	}
	det = tc.Answer().Detect(r)
	ex.Answer = det.Settings
	return det, settingsMismatch(tc.WithAnswer(det.Settings), ex)
}

// settingsMismatch returns one sentence naming the setting the first
// response of a fresh bucket contradicts, or nil.
func settingsMismatch(tc service.Config, ex *service.Exchange) error {
	if ex.Err != nil || ex.Status != http.StatusOK {
		return nil
	}
	rl, err := ex.RateLimit()
	if err != nil || rl.Limit != rl.Remaining+1 {
		return nil
	}
	if tc.Profile == profile.TokenBucket {
		return bucketMismatch(tc, rl, ex)
	}
	if rl.Limit != int64(tc.Limit) {
		return fmt.Errorf("RL_LIMIT=%d but the service answers %s: %d on the first request of a fresh bucket; set RL_LIMIT=%d",
			tc.Limit, ex.Answer.FieldName(dialect.FieldLimit), rl.Limit, rl.Limit)
	}
	left := untilReset(rl, ex)
	if left > tc.Window+dateSlack {
		return fmt.Errorf("RL_WINDOW=%s but the service answers %s: %d, %s after the first request of a fresh bucket; set RL_WINDOW to the service's window (at least %s)",
			tc.Window, ex.Answer.FieldName(dialect.FieldReset), rl.Reset, left.Round(time.Second), left.Truncate(time.Second))
	}
	return nil
}

// untilReset is how far the response's Reset lies after it was answered
// (its Date header, else when it came back).
func untilReset(rl service.RateLimit, ex *service.Exchange) time.Duration {
	now := ex.Received
	if d, err := http.ParseTime(ex.RespHeader.Get("Date")); err == nil {
		now = d
	}
	return time.Unix(rl.Reset, 0).Sub(now)
}

// bodyNote says, when BODY_TEMPLATE renders the same body twice, that
// AC6-03 (one Idempotency-Key, a different body) cannot run.
func bodyNote(body *service.Body) (string, error) {
	bucket := service.Bucket(service.NewDeviceBucket())
	a, err := body.Render(bucket)
	if err != nil {
		return "", err
	}
	b, err := body.Render(bucket)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(a, b) {
		return "", nil
	}
	return "BODY_TEMPLATE renders the same body twice, so AC6-03 (one Idempotency-Key, a different body) cannot run and will be SKIPPED; put {{uuid}} in a field your service accepts (a nonce or a client reference)", nil
}
