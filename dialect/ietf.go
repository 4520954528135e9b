// The IETF rate-limit fields of draft-ietf-httpapi-ratelimit-headers-11
// (DIALECT=ietf; IETF-1): RateLimit-Policy (the quota policies: q quota,
// w window, qu unit, pk partition key) and RateLimit (the current service
// limit: r remaining, t seconds until more quota, pk), as RFC 9651
// structured-field lists read with github.com/dunglas/httpsfv.
//
// Parsing is strict where the draft says MUST: a field that is not a valid
// List, an Item whose value is not a String, a missing or negative q or r,
// a w or t that is not a non-negative Integer (w > 0), or a pk that is not
// a Byte Sequence is an error naming the field and the item.

package dialect

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dunglas/httpsfv"
)

// The field names.
const (
	PolicyField = "RateLimit-Policy"
	LimitField  = "RateLimit"
)

// IETFPolicy is one Quota Policy Item of RateLimit-Policy.
type IETFPolicy struct {
	Name         string
	Quota        int64  // q (required)
	Unit         string // qu ("requests" when absent)
	Window       int64  // w in seconds; 0 when absent
	PartitionKey []byte // pk
}

// IETFLimit is one Service Limit Item of RateLimit.
type IETFLimit struct {
	Name         string
	Remaining    int64 // r (required)
	Reset        int64 // t in seconds; -1 when absent
	PartitionKey []byte
}

// ErrAbsent is returned (wrapped) when a response carries no such field.
var ErrAbsent = errors.New("field absent")

// ParseIETFPolicies parses every RateLimit-Policy field of h (a list may be
// split over several fields).
func ParseIETFPolicies(h http.Header) ([]IETFPolicy, error) {
	return parseItems(h, PolicyField, func(it httpsfv.Item, name string, i int) (p IETFPolicy, err error) {
		p = IETFPolicy{Name: name, Unit: "requests"}
		if p.Quota, err = intParam(it, PolicyField, i, "q", true, 0); err != nil {
			return p, err
		}
		if v, ok := it.Params.Get("qu"); ok {
			s, isString := v.(string)
			if !isString {
				return p, fmt.Errorf("%s item %d (%q): qu is not a String", PolicyField, i+1, name)
			}
			p.Unit = s
		}
		if p.Window, err = intParam(it, PolicyField, i, "w", false, 1); err != nil {
			return p, err
		}
		p.PartitionKey, err = pkParam(it, PolicyField, i)
		return p, err
	})
}

// ParseIETFLimits parses every RateLimit field of h.
func ParseIETFLimits(h http.Header) ([]IETFLimit, error) {
	return parseItems(h, LimitField, func(it httpsfv.Item, name string, i int) (l IETFLimit, err error) {
		l = IETFLimit{Name: name, Reset: -1}
		if l.Remaining, err = intParam(it, LimitField, i, "r", true, 0); err != nil {
			return l, err
		}
		if _, ok := it.Params.Get("t"); ok {
			if l.Reset, err = intParam(it, LimitField, i, "t", true, 0); err != nil {
				return l, err
			}
		}
		l.PartitionKey, err = pkParam(it, LimitField, i)
		return l, err
	})
}

// parseItems parses every field of h as one List of String-named items,
// each read by read (given its item, name and index), in order; the first
// error stops it.
func parseItems[T any](h http.Header, field string, read func(it httpsfv.Item, name string, i int) (T, error)) ([]T, error) {
	list, err := parseList(h, field)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(list))
	for i, m := range list {
		it, name, err := stringItem(m, field, i)
		if err != nil {
			return nil, err
		}
		v, err := read(it, name, i)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func parseList(h http.Header, field string) (httpsfv.List, error) {
	vs := values(h, field)
	if len(vs) == 0 {
		return nil, fmt.Errorf("%s: %w", field, ErrAbsent)
	}
	list, err := httpsfv.UnmarshalList(vs)
	if err != nil {
		return nil, fmt.Errorf("%s is not a structured-field List (RFC 9651): %w", field, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s is an empty List", field)
	}
	return list, nil
}

func stringItem(m httpsfv.Member, field string, i int) (httpsfv.Item, string, error) {
	it, ok := m.(httpsfv.Item)
	if !ok {
		return httpsfv.Item{}, "", fmt.Errorf("%s member %d is an Inner List, not an Item", field, i+1)
	}
	name, ok := it.Value.(string)
	if !ok {
		return httpsfv.Item{}, "", fmt.Errorf("%s item %d is %T, not a String naming the policy", field, i+1, it.Value)
	}
	return it, name, nil
}

// intParam reads a non-negative Integer parameter of at least minimum.
func intParam(it httpsfv.Item, field string, i int, key string, required bool, minimum int64) (int64, error) {
	v, ok := it.Params.Get(key)
	if !ok {
		if required {
			return 0, fmt.Errorf("%s item %d lacks the required %q parameter", field, i+1, key)
		}
		return 0, nil
	}
	n, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("%s item %d: %s is %T, not an Integer", field, i+1, key, v)
	}
	if n < minimum {
		return 0, fmt.Errorf("%s item %d: %s=%d is below %d", field, i+1, key, n, minimum)
	}
	return n, nil
}

func pkParam(it httpsfv.Item, field string, i int) ([]byte, error) {
	v, ok := it.Params.Get("pk")
	if !ok {
		return nil, nil
	}
	b, ok := v.([]byte)
	if !ok {
		return nil, fmt.Errorf("%s item %d: pk is %T, not a Byte Sequence", field, i+1, v)
	}
	return b, nil
}

// Format writes the two fields for one policy, as a server in the ietf
// dialect answers: RateLimit-Policy `"name";q=N;w=W` and RateLimit
// `"name";r=R;t=T`.
func FormatIETF(h http.Header, name string, quota int, window time.Duration, remaining, resetIn int64) error {
	p := httpsfv.NewItem(name)
	p.Params.Add("q", int64(quota))
	p.Params.Add("w", int64(window/time.Second))
	ps, err := httpsfv.Marshal(httpsfv.List{p})
	if err != nil {
		return fmt.Errorf("format %s: %w", PolicyField, err)
	}
	l := httpsfv.NewItem(name)
	l.Params.Add("r", max(remaining, 0))
	l.Params.Add("t", max(resetIn, 0))
	ls, err := httpsfv.Marshal(httpsfv.List{l})
	if err != nil {
		return fmt.Errorf("format %s: %w", LimitField, err)
	}
	h.Set(PolicyField, ps)
	h.Set(LimitField, ls)
	return nil
}
