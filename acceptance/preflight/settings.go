package preflight

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
)

// dateSlack is how far a correct service's Reset may lie beyond its window
// from the harness's view: the Date header's and Reset's whole seconds.
const dateSlack = 2 * time.Second

// CheckSettings sends one request on a fresh bucket (a fresh device_bucket
// no scenario uses; a fresh key of the other profiles) to the enabled
// target. Its answer (HTTP 200) settles what the dialect settings leave to
// auto (dialect.Detect: the Detection says what and why), is held to the
// dialect settings given explicitly (a contradiction is one sentence, exit
// 2), and its rate-limit fields are compared with RL_LIMIT and RL_WINDOW. A
// limit or window contradiction is a settings mismatch only when the
// response is otherwise a consistent first response (HTTP 200, Limit =
// Remaining + 1): a service that lies in its headers is left to the
// scenarios (FR-7), which report it as a failure.
func CheckSettings(ctx context.Context, tc service.Config, explicit dialect.Settings, body *bodytmpl.Body, timeout time.Duration) (dialect.Detection, error) {
	det := dialect.Detection{Settings: tc.Answer()}
	b, err := body.Render(bodytmpl.Bucket(bodytmpl.NewDeviceBucket()))
	if err != nil {
		return det, err
	}
	req := httpclient.Request{Body: b}
	if tc.Profile != profile.PRD {
		key, err := tc.RenderKey(bodytmpl.NewUUID())
		if err != nil {
			return det, err
		}
		req = tc.KeyedRequest(key) // a fresh key of the profile, with its method
	}
	c := httpclient.New(tc, tc.URL, httpclient.WithTimeout(timeout))
	defer c.Close()
	ex := c.Do(ctx, req)
	if err := firstAllowed(tc, ex); err != nil {
		return det, err
	}
	if ex.Err != nil || ex.Status != http.StatusOK {
		return det, nil
	}
	r := dialect.Response{Status: ex.Status, Header: ex.RespHeader, Body: ex.RespBody, Received: ex.Received}
	if err := explicit.Contradiction(r); err != nil {
		return det, probeHint(err)
	}
	det = tc.Answer().Detect(r)
	ex.Answer = det.Settings
	return det, probeHint(settingsMismatch(tc.WithAnswer(det.Settings), ex))
}

// probeHint adds to a sentence on settings the first answer contradicts
// that the probe reads them all from the target.
func probeHint(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w; `rlspec probe` reads every setting the target's answers show", err)
}

// settingsMismatch returns one sentence naming the setting the first
// response of a fresh bucket contradicts, or nil.
func settingsMismatch(tc service.Config, ex *httpclient.Exchange) error {
	if ex.Err != nil || ex.Status != http.StatusOK {
		return nil
	}
	rl, err := ex.RateLimit()
	if err != nil || rl.Limit != rl.Remaining+1 {
		return nil
	}
	// Each design's first answer says its own settings (tbsettings.go): a
	// check that reads an exchange's headers cannot live in the registry,
	// which package service, beneath httpclient, imports.
	switch tc.Profile {
	case profile.TokenBucket:
		return bucketMismatch(tc, rl, ex)
	case profile.LeakyBucket:
		return queueMismatch(tc, rl, ex)
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
func untilReset(rl dialect.RateLimit, ex *httpclient.Exchange) time.Duration {
	now := ex.Received
	if d, err := http.ParseTime(ex.RespHeader.Get("Date")); err == nil {
		now = d
	}
	return time.Unix(rl.Reset, 0).Sub(now)
}

// BodyNote says, when BODY_TEMPLATE renders the same body twice, that
// AC6-03 (one Idempotency-Key, a different body) cannot run.
func BodyNote(body *bodytmpl.Body) (string, error) {
	bucket := bodytmpl.Bucket(bodytmpl.NewDeviceBucket())
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

// firstAllowed is a setup error when a fresh key's first request is not
// allowed (2xx): every scenario would fail on it, and a bound ("at most N")
// would hold on a run that allowed nothing. The sentence shows the answer
// and names the settings that usually cause it.
func firstAllowed(tc service.Config, ex *httpclient.Exchange) error {
	if ex.Err != nil || ex.Status/100 == 2 {
		return nil
	}
	hint := "check TARGET_URL's path (or TARGET_PATH), TARGET_METHOD, KEY and TARGET_HEADERS"
	switch {
	case ex.Status == http.StatusUnauthorized || ex.Status == http.StatusForbidden:
		hint = "give the credentials in TARGET_HEADERS"
	case ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed:
		hint = "check the endpoint: TARGET_URL's path (or TARGET_PATH) and TARGET_METHOD"
	case ex.Status == http.StatusBadRequest || ex.Status == http.StatusUnprocessableEntity:
		hint = "the service rejected the request: check BODY_TEMPLATE, TARGET_METHOD and KEY"
	case ex.Status == http.StatusTooManyRequests:
		hint = "the service refused a key it has never seen: check KEY (how it tells clients apart) and RL_LIMIT"
	case ex.Status >= 500:
		hint = "the service failed; see its log"
	}
	if tc.Profile == profile.PRD && ex.Status/100 == 4 && ex.Status != http.StatusTooManyRequests {
		// A generic API under the default profile.
		hint += "; PROFILE=prd (the default) sends the PRD's POST of a ride: for another API set PROFILE to its design (" + profile.Choices(false) + "; docs/profiles.md) — `rlspec probe` looks at your API with a few requests and prints the settings to use"
	}
	return fmt.Errorf("the first request of a fresh key (%s %s) was answered HTTP %d%s, not 2xx: rlspec can test only what the service allows; %s",
		ex.Method, redact.URL(ex.URL), ex.Status, bodyExcerpt(ex.RespBody), hint)
}

// bodyExcerpt is the start of a response body on one line, for a sentence.
func bodyExcerpt(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if s == "" {
		return ""
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return " " + strconv.Quote(s)
}
