package dialect

import (
	"fmt"
	"net/http"
	"time"
)

// IETFFields is what one response says in the IETF fields: the policy whose
// limit it reports and that limit.
type IETFFields struct {
	Policy IETFPolicy
	Limit  IETFLimit
}

// ReadIETF parses both fields of a response and pairs the RateLimit item with
// the policy it names. With several items the first RateLimit item and its
// policy are taken; a RateLimit item naming no policy of RateLimit-Policy is
// an error.
func ReadIETF(h http.Header) (IETFFields, error) {
	ps, err := ParseIETFPolicies(h)
	if err != nil {
		return IETFFields{}, err
	}
	ls, err := ParseIETFLimits(h)
	if err != nil {
		return IETFFields{}, err
	}
	l := ls[0]
	for _, p := range ps {
		if p.Name == l.Name {
			return IETFFields{Policy: p, Limit: l}, nil
		}
	}
	return IETFFields{}, fmt.Errorf("%s names policy %q, which %s does not declare", LimitField, l.Name, PolicyField)
}

// Match is IETF-1's policy part: q equals the configured quota n and w the
// window (in whole seconds).
func (f IETFFields) Match(n int, w time.Duration) error {
	switch {
	case f.Policy.Quota != int64(n):
		return fmt.Errorf("%s %q: q=%d, but the configured limit is %d", PolicyField, f.Policy.Name, f.Policy.Quota, n)
	case f.Policy.Window == 0:
		return fmt.Errorf("%s %q has no w; the configured window is %s", PolicyField, f.Policy.Name, w)
	case f.Policy.Window != int64(w/time.Second):
		return fmt.Errorf("%s %q: w=%d, but the configured window is %d s", PolicyField, f.Policy.Name, f.Policy.Window, int64(w/time.Second))
	}
	return nil
}

// Reset is the unix second the t parameter points at, given the time the
// response was received (−1 when t is absent): IETF-1 holds it to the same
// rules as X-RateLimit-Reset.
func (f IETFFields) Reset(received time.Time) int64 {
	if f.Limit.Reset < 0 {
		return -1
	}
	return received.Unix() + f.Limit.Reset
}
