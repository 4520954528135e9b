package prd

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerAuth registers the steps of requests refused for their
// credentials (extended, FR-3: a refused request changes nothing).
func (s *World) registerAuth(sc scenario.Stepper) {
	sc.Step(`^TARGET_HEADERS carries credentials$`, s.carriesCredentials)
	sc.Step(`^I send a ride to the bucket without the credentials and one with wrong credentials$`, s.sendUnauthorised)
	sc.Step(`^both were refused with 401 or 403$`, s.refused)
	sc.Step(`^the next ride's Remaining is one below the first response's$`, func() error { return s.nextBelowBucketFirst(1) })
}

// credentials are the names of TARGET_HEADERS that carry credentials.
func (s *World) credentials() []string {
	var names []string
	for k := range s.Env().Config.Headers {
		if redact.IsCredential(k) {
			names = append(names, k)
		}
	}
	return names
}

func (s *World) carriesCredentials() error {
	if len(s.credentials()) == 0 {
		return scenario.Skip("TARGET_HEADERS carries no credential (Authorization, a cookie or a key header), so no request can be refused for its credentials")
	}
	return nil
}

// withoutCredentials removes every credential header of TARGET_HEADERS (a
// name with no values removes it); wrongCredentials keeps an
// Authorization scheme and replaces the rest of each value.
func (s *World) withoutCredentials() http.Header {
	h := http.Header{}
	for _, k := range s.credentials() {
		h[k] = []string{}
	}
	return h
}

func (s *World) wrongCredentials() http.Header {
	h := http.Header{}
	wrong := "rlspec-wrong-" + bodytmpl.NewUUID()
	for _, k := range s.credentials() {
		for _, v := range s.Env().Config.Headers[k] {
			if scheme, _, ok := strings.Cut(v, " "); ok {
				h[k] = append(h[k], scheme+" "+wrong)
			} else {
				h[k] = append(h[k], wrong)
			}
		}
	}
	return h
}

// sendUnauthorised sends the bucket a ride without its credentials and one
// with wrong ones, keeping both as the batch.
func (s *World) sendUnauthorised() error {
	s.Batch = scenario.Batch{}
	for _, h := range []http.Header{s.withoutCredentials(), s.wrongCredentials()} {
		_, ex, err := s.SendFresh(s.Client(), bodytmpl.Bucket(s.Bucket.ID), h)
		if ex != nil {
			s.Batch.Exchanges = append(s.Batch.Exchanges, ex)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// refused checks the batch was refused for its credentials. A service that
// answers 2xx without them does not require them: the scenario cannot run.
func (s *World) refused() error {
	for i, ex := range s.Batch.Exchanges {
		what := [...]string{"without the credentials of TARGET_HEADERS", "with wrong credentials"}[i]
		switch {
		case ex.Status == http.StatusUnauthorized || ex.Status == http.StatusForbidden:
		case ex.Status >= 200 && ex.Status < 300:
			return scenario.Skip("the service accepted a ride %s (HTTP %d), so it refuses none for its credentials", what, ex.Status)
		default:
			return scenario.Violate(clause.Of(clause.Extended), "a ride "+what+" is refused",
				"HTTP 401 or 403", check.Describe(ex), ex)
		}
	}
	return nil
}

// nextBelowBucketFirst checks that the next ride to the bucket shows n fewer
// units than its first response: nothing sent between them spent a unit.
func (s *World) nextBelowBucketFirst(n int) error {
	if s.Bucket.First == nil {
		return fmt.Errorf("no first response on the bucket")
	}
	first, err := check.HeadersOf(s.Bucket.First, clause.Of(clause.FR7))
	if err != nil {
		return scenario.Precondition(err)
	}
	ex, got, err := s.nextFresh()
	if err != nil {
		return err
	}
	if want := first.Remaining - int64(n); got != want {
		return scenario.Violate(clause.Of(clause.Extended, clause.FR3), "requests refused for their credentials spend nothing",
			fmt.Sprintf("the next authorised request's Remaining %d (first response's %d minus %d)", want, first.Remaining, n),
			fmt.Sprintf("%s: the refused requests spent %d unit(s)", check.Describe(ex), want-got), s.Exchanges()...)
	}
	return nil
}
