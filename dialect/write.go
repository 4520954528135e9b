package dialect

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dunglas/httpsfv"
)

// Quota is what a server reports on one answer.
type Quota struct {
	Limit, Remaining int64
	Reset            time.Time // when the quota is restored
	Window           time.Duration
	Now              time.Time // the decision's time, delta formats count from it
}

// IETFPolicyName names the one quota policy Write declares.
const IETFPolicyName = "default"

// Write sets q's header fields in s's dialect, as a server answering in it
// does: x-ratelimit with s's prefix and RESET_FORMAT (unix when auto), the
// drafts with delta seconds (rounded up, never below 0), nothing under
// status.
func (s Settings) Write(h http.Header, q Quota) error {
	delta := max(int64(q.Reset.Sub(q.Now.Truncate(time.Second))/time.Second), 0)
	if q.Reset.After(q.Now) && delta == 0 {
		delta = 1
	}
	w := int64(q.Window / time.Second)
	switch s.Dialect {
	case Status:
	case Fields:
		h.Set(FieldsLimit, strconv.FormatInt(q.Limit, 10))
		h.Set(FieldsRemaining, strconv.FormatInt(q.Remaining, 10))
		h.Set(FieldsReset, strconv.FormatInt(delta, 10))
		h.Set(PolicyField, fmt.Sprintf("%d;w=%d", q.Limit, w))
	case Dict:
		d := httpsfv.NewDictionary()
		d.Add("limit", httpsfv.NewItem(q.Limit))
		d.Add("remaining", httpsfv.NewItem(q.Remaining))
		d.Add("reset", httpsfv.NewItem(delta))
		v, err := httpsfv.Marshal(d)
		if err != nil {
			return fmt.Errorf("format %s: %w", LimitField, err)
		}
		h.Set(LimitField, v)
		h.Set(PolicyField, fmt.Sprintf("%d;w=%d", q.Limit, w))
	case IETF:
		return FormatIETF(h, IETFPolicyName, int(q.Limit), q.Window, q.Remaining, delta)
	default:
		p := s.prefix()
		h.Set(p+"Limit", strconv.FormatInt(q.Limit, 10))
		h.Set(p+"Remaining", strconv.FormatInt(q.Remaining, 10))
		h.Set(p+"Reset", FormatReset(s.ResetFormat, q.Reset, delta))
	}
	return nil
}

// FormatReset writes X-RateLimit-Reset in format f (unix when f is not
// concrete), delta being the seconds until reset.
func FormatReset(f ResetFormat, reset time.Time, delta int64) string {
	switch f {
	case ResetUnixMS:
		return strconv.FormatInt(reset.UnixMilli(), 10)
	case ResetUnixFrac:
		return fmt.Sprintf("%d.%03d", reset.Unix(), reset.Nanosecond()/int(time.Millisecond))
	case ResetDelta:
		return strconv.FormatInt(delta, 10)
	case ResetHTTPDate:
		return reset.UTC().Format(http.TimeFormat)
	}
	return strconv.FormatInt(reset.Unix(), 10)
}
