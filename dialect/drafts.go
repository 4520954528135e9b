package dialect

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// The fields of the IETF drafts.
const (
	FieldsLimit     = "RateLimit-Limit"
	FieldsRemaining = "RateLimit-Remaining"
	FieldsReset     = "RateLimit-Reset"
)

// readFields reads ratelimit-fields (draft -06 and earlier):
// RateLimit-Limit, -Remaining, -Reset (delta seconds), and an optional
// RateLimit-Policy `q;w=W`. RateLimit-Limit may carry the early drafts'
// policy list ("10, 10;w=1"): its first member's Integer is the limit.
func readFields(r Response, o *Observation) error {
	h := r.Header
	o.Lines = lines(h, FieldsLimit, FieldsRemaining, FieldsReset, PolicyField)
	var errs []error
	if v, err := one(h, FieldsLimit); err != nil {
		errs = append(errs, err)
	} else if n, w, err := quotaItem(FieldsLimit, v); err != nil {
		errs = append(errs, err)
	} else {
		o.Limit, o.Present = n, o.Present|FieldLimit
		o.setWindow(w)
	}
	if err := intField(h, FieldsRemaining, &o.Remaining); err != nil {
		errs = append(errs, err)
	} else {
		o.Present |= FieldRemaining
	}
	var t int64
	if err := intField(h, FieldsReset, &t); err != nil {
		errs = append(errs, err)
	} else if o.Reset, err = after(r.Received, t, FieldsReset); err != nil {
		errs = append(errs, err)
	} else {
		o.Present |= FieldReset
	}
	return first(append(errs, o.readPolicy(h))...)
}

// readPolicy reads the drafts' optional RateLimit-Policy `q;w=W`.
func (o *Observation) readPolicy(h http.Header) error {
	v := values(h, PolicyField)
	if len(v) == 0 {
		return nil
	}
	_, w, err := quotaItem(PolicyField, strings.Join(v, ", "))
	o.setWindow(w)
	return err
}

func (o *Observation) setWindow(w int64) {
	if w > 0 && !o.Has(FieldPolicy) {
		o.Window, o.Present = time.Duration(w)*time.Second, o.Present|FieldPolicy
	}
}

// quotaItem reads the first member of a draft quota-policy list ("100;w=60,
// 1000;w=3600"): its Integer and w (0 when absent).
func quotaItem(name, v string) (n, w int64, err error) {
	list, err := httpsfv.UnmarshalList([]string{v})
	if err != nil || len(list) == 0 {
		return 0, 0, fmt.Errorf("%s: %q is not an integer or a quota-policy list", name, v)
	}
	it, ok := list[0].(httpsfv.Item)
	if !ok {
		return 0, 0, fmt.Errorf("%s: %q starts with an Inner List, not an Integer", name, v)
	}
	if n, ok = it.Value.(int64); !ok || n < 0 {
		return 0, 0, fmt.Errorf("%s: %q does not start with a non-negative Integer", name, v)
	}
	if p, ok := it.Params.Get("w"); ok {
		if w, ok = p.(int64); !ok || w < 1 {
			return 0, 0, fmt.Errorf("%s: %q has a w that is not a positive Integer", name, v)
		}
	}
	return n, w, nil
}

// readDict reads ratelimit-dict (draft -07): one Dictionary
// `RateLimit: limit=N, remaining=R, reset=S` and an optional
// RateLimit-Policy `q;w=W`.
func readDict(r Response, o *Observation) error {
	h := r.Header
	o.Lines = lines(h, LimitField, PolicyField)
	vs := values(h, LimitField)
	if len(vs) == 0 {
		return fmt.Errorf("%s is missing", LimitField)
	}
	d, err := httpsfv.UnmarshalDictionary(vs)
	if err != nil {
		return fmt.Errorf("%s: %q is not a structured-field Dictionary (limit=N, remaining=R, reset=S)", LimitField, strings.Join(vs, ", "))
	}
	var errs []error
	for _, k := range []struct {
		key string
		dst *int64
		f   Field
	}{{"limit", &o.Limit, FieldLimit}, {"remaining", &o.Remaining, FieldRemaining}, {"reset", nil, FieldReset}} {
		m, ok := d.Get(k.key)
		if !ok {
			errs = append(errs, fmt.Errorf("%s lacks %s=", LimitField, k.key))
			continue
		}
		it, isItem := m.(httpsfv.Item)
		n, isInt := it.Value.(int64)
		if !isItem || !isInt || n < 0 {
			errs = append(errs, fmt.Errorf("%s: %s is not a non-negative Integer", LimitField, k.key))
			continue
		}
		if k.dst != nil {
			*k.dst = n
		} else if o.Reset, err = after(r.Received, n, LimitField+" reset"); err != nil {
			errs = append(errs, err)
			continue
		}
		o.Present |= k.f
	}
	return first(append(errs, o.readPolicy(h))...)
}

// readIETF reads ietf (draft -08 and later): the RateLimit item and the
// RateLimit-Policy item it names; Limit is q, Remaining r, Reset received
// + t, Window w.
func readIETF(r Response, o *Observation) error {
	o.Lines = lines(r.Header, PolicyField, LimitField)
	f, err := ReadIETF(r.Header)
	if err != nil {
		return err
	}
	o.Limit, o.Remaining = f.Policy.Quota, f.Limit.Remaining
	o.Present |= FieldLimit | FieldRemaining
	o.setWindow(f.Policy.Window)
	if f.Limit.Reset >= 0 {
		if o.Reset, err = after(r.Received, f.Limit.Reset, LimitField+" t"); err != nil {
			return err
		}
		o.Present |= FieldReset
	}
	return nil
}

// first is the first non-nil error: a reader reports one sentence.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
