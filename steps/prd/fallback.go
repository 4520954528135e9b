package prd

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerFallback registers the steps of keying by client address when
// device_bucket is missing or invalid (AC5, AC9, FR-2).
func (s *World) registerFallback(sc scenario.Stepper) {
	sc.Step(`^the address bucket has (\d+) units? left$`, s.addressBucketWithLeft)
	sc.Step(`^I send a ride without device_bucket$`, s.sendNoBucket)
	sc.Step(`^I send a ride without device_bucket from another client address$`, s.sendNoBucketOtherAddr)
	sc.Step(`^I send a ride without device_bucket and a spoofed X-Forwarded-For$`, s.sendSpoofedXFF)
	sc.Step(`^I send a ride with an invalid device_bucket "([^"]*)"$`, s.sendInvalidBucket)
}

func (s *World) addressBucketWithLeft(n int) error {
	s.Bucket.First = nil
	ex, err := s.One(s.Client(), bodytmpl.Omit())
	if err != nil {
		return scenario.Precondition(err)
	}
	if err := s.ExpectFirst(ex, s.Limit()-1); err != nil {
		return scenario.Precondition(err)
	}
	return scenario.Precondition(s.leaveUnits(n, true))
}

func (s *World) sendNoBucket() error {
	ex, err := s.One(s.Client(), bodytmpl.Omit())
	if err == nil && ex.Status == http.StatusOK {
		s.address.paid++
	}
	return err
}

func (s *World) sendNoBucketOtherAddr() error {
	_, err := s.One(s.NewClient(), bodytmpl.Omit())
	return err
}

func (s *World) sendSpoofedXFF() error {
	if s.spoofer == nil {
		s.spoofer = s.spoofClient()
	}
	if s.spoofer == nil {
		return scenario.Skip("CLIENT_IPS=xff makes the harness a trusted proxy, so an untrusted X-Forwarded-For cannot be sent (with TARGET_IMAGE, rlspec starts an instance that trusts no proxy for it)")
	}
	spoof := httpclient.NewAddr(httpclient.XFF)
	_, err := s.OneWith(s.spoofer, bodytmpl.Omit(), http.Header{"X-Forwarded-For": {spoof.String()}})
	return err
}

// invalidBucket maps a feature's description of an invalid device_bucket to
// the value sent. Values are fresh where the kind allows, so that a target
// that keys by the invalid value itself cannot have two scenarios share a
// bucket (and one of them pass by that chance).
func invalidBucket(kind string) (bodytmpl.BucketField, error) {
	hex := bodytmpl.NewDeviceBucket()
	switch kind {
	case "not-a-hash":
		return bodytmpl.Bucket("not-a-hash-" + hex[:8]), nil
	case "63 hex":
		return bodytmpl.Bucket(hex[:63]), nil
	case "65 hex":
		return bodytmpl.Bucket(hex + "a"), nil
	case "64 non-hex":
		return bodytmpl.Bucket(strings.Repeat("z", 8) + hex[8:]), nil
	case "empty":
		return bodytmpl.Bucket(""), nil
	case "number":
		n, err := strconv.ParseInt(hex[:7], 16, 64)
		if err != nil {
			return bodytmpl.BucketField{}, fmt.Errorf("number device_bucket: %w", err)
		}
		return bodytmpl.BucketValue(n), nil
	}
	return bodytmpl.BucketField{}, fmt.Errorf("unknown invalid device_bucket kind %q", kind)
}

func (s *World) sendInvalidBucket(kind string) error {
	f, err := invalidBucket(kind)
	if err != nil {
		return err
	}
	ex, err := s.One(s.Client(), f)
	if ex != nil {
		s.address.invalid = append(s.address.invalid, ex)
	}
	return err
}

// addressLedger is what the scenario's client address should have paid:
// the rides without device_bucket that got 200, and the rides with an
// invalid device_bucket, which AC9 keys by the address too.
type addressLedger struct {
	paid    int
	invalid []*httpclient.Exchange
}

// spentUnderInvalid says, after a failure of a scenario that sent invalid
// device_bucket values, whether units of the address's quota were spent
// under them: one more ride without device_bucket shows how many units the
// address has lost, of which the plain rides account for paid.
func (s *World) spentUnderInvalid() string {
	n := len(s.address.invalid)
	if n == 0 || s.Ctx() == nil || s.Ctx().Err() != nil {
		return ""
	}
	_, ex, err := s.SendFresh(s.Client(), bodytmpl.Omit(), nil)
	var rl dialect.RateLimit
	if err == nil {
		rl, err = ex.RateLimit()
	}
	if err != nil || ex.Status != http.StatusOK {
		return "whether a unit was spent under the invalid device_bucket is unknown: a ride without device_bucket afterwards got " + check.Describe(ex)
	}
	lost := s.Limit() - 1 - int(rl.Remaining)
	under := lost - s.address.paid
	out := fmt.Sprintf("a ride without device_bucket afterwards got Remaining %d: the address's bucket had lost %d units, %d for rides without device_bucket, so ",
		rl.Remaining, lost, s.address.paid)
	switch {
	case under == 0:
		out += fmt.Sprintf("no unit of the address's quota was spent under the %d invalid device_bucket value(s)", n)
		if last := s.address.invalid[n-1]; last.Status == http.StatusOK {
			if own, err := last.RateLimit(); err == nil {
				out += fmt.Sprintf(" (the last one got 200 with Remaining %d: it was counted on a bucket of its own)", own.Remaining)
			}
		}
	case under == n:
		out += fmt.Sprintf("one unit of the address's quota was spent under each of the %d invalid device_bucket value(s)", n)
	default:
		out += fmt.Sprintf("%d units of the address's quota were spent under %d invalid device_bucket value(s)", under, n)
	}
	return out
}
