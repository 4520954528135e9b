package service

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

type headerFlag http.Header

// String shows credentials as references to their variables
// (redact.Headers, unquoted): it is what help and replay commands print.
func (f *headerFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	s := redact.Headers(http.Header(*f))
	return s[1 : len(s)-1]
}
func (f *headerFlag) Set(s string) error {
	h, err := ParseHeaders(s)
	if err != nil {
		return err
	}
	*f = headerFlag(h)
	return nil
}

type schemaFlag DBSchema

func (f *schemaFlag) String() string { return string(*f) }
func (f *schemaFlag) Set(s string) error {
	switch DBSchema(s) {
	case SchemaPRD, SchemaTokens:
		*f = schemaFlag(s)
		return nil
	}
	return fmt.Errorf("%q is neither prd nor tokens", s)
}

type clientIPsFlag httpclient.AddrMode

func (f *clientIPsFlag) String() string { return string(*f) }
func (f *clientIPsFlag) Set(s string) error {
	switch httpclient.AddrMode(s) {
	case httpclient.Bind, httpclient.XFF:
		*f = clientIPsFlag(s)
		return nil
	}
	return fmt.Errorf("%q is neither bind nor xff", s)
}

type profileFlag profile.Name

func (f *profileFlag) String() string { return string(*f) }
func (f *profileFlag) Set(s string) error {
	p, err := profile.Parse(s, true)
	if err != nil {
		return err
	}
	*f = profileFlag(p)
	return nil
}

// featuresFlag is a comma list; set to "" it claims none (non-nil empty).
type featuresFlag []profile.Feature

func (f *featuresFlag) String() string {
	if f == nil {
		return ""
	}
	s := make([]string, len(*f))
	for i, x := range *f {
		s[i] = string(x)
	}
	return strings.Join(s, ",")
}
func (f *featuresFlag) Set(s string) error {
	out := []profile.Feature{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, profile.Feature(part))
		}
	}
	*f = out
	return nil
}

type keyFlag Key

func (f *keyFlag) String() string { return Key(*f).String() }
func (f *keyFlag) Set(s string) error {
	k, err := ParseKey(s)
	if err != nil {
		return err
	}
	*f = keyFlag(k)
	return nil
}

type alignFlag profile.Align

func (f *alignFlag) String() string { return string(*f) }
func (f *alignFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%q is not one of epoch, first-request", s)
	}
	a, err := profile.ParseAlign(s)
	if err != nil {
		return err
	}
	*f = alignFlag(a)
	return nil
}

type methodFlag string

func (f *methodFlag) String() string { return string(*f) }
func (f *methodFlag) Set(s string) error {
	m := strings.ToUpper(strings.TrimSpace(s))
	if m == "" || strings.Trim(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return fmt.Errorf("%q is not an HTTP method", s)
	}
	*f = methodFlag(m)
	return nil
}
