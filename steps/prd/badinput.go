package prd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerBadInput registers the steps of bad input (extended).
func (s *World) registerBadInput(sc scenario.Stepper) {
	sc.Step(`^I send a bad body: (.+)$`, s.sendBadBody)
	sc.Step(`^the response is a 4xx with a JSON error body$`, s.is4xxJSON)
	sc.Step(`^the next ride without device_bucket gets Remaining at most the limit minus (\d+)$`, s.nextNoBucketAtMost)
}

// badBody maps a feature's description of bad input to the body sent.
func (s *World) badBody(kind string) ([]byte, error) {
	switch kind {
	case "malformed JSON":
		return []byte(`{"route_id":"335E","segments":[`), nil
	case "empty body":
		return nil, nil
	case "JSON array":
		return []byte(`[{"route_id":"335E"}]`), nil
	case "JSON string":
		return []byte(`"ride"`), nil
	case "JSON null":
		return []byte(`null`), nil
	case "oversized body":
		r, err := s.Request(bodytmpl.Omit())
		if err != nil {
			return nil, err
		}
		body := r.Body
		pad := bytes.Repeat([]byte("x"), 2<<20)
		return append(append(append(body[:len(body)-1:len(body)-1], `,"pad":"`...), pad...), `"}`...), nil
	}
	return nil, fmt.Errorf("unknown bad body kind %q", kind)
}

func (s *World) sendBadBody(kind string) error {
	body, err := s.badBody(kind)
	if err != nil {
		return err
	}
	r := httpclient.Request{Body: body, IdempotencyKey: bodytmpl.NewUUID()}
	ex := s.Do(s.Client(), r)
	s.Last = scenario.Last{Req: r, Ex: ex, Keyed: ex}
	if ex.Err != nil {
		return scenario.Violate(clause.Of(clause.Extended), "bad input is answered",
			"a 4xx response with a JSON error", ex.Err.Error(), ex)
	}
	return nil
}

func (s *World) is4xxJSON() error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	var m map[string]any
	if ex.Status < 400 || ex.Status > 499 || json.Unmarshal(ex.RespBody, &m) != nil || m == nil {
		return scenario.Violate(clause.Of(clause.Extended), "bad input",
			"a 4xx with a JSON error body, never a 5xx", check.Describe(ex), ex)
	}
	return nil
}

func (s *World) nextNoBucketAtMost(n int) error {
	ex, err := s.One(s.Client(), bodytmpl.Omit())
	if err != nil {
		return err
	}
	rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if want := int64(s.Limit() - n); ex.Status != http.StatusOK || rl.Remaining > want {
		return scenario.Violate(clause.Of(clause.Extended), "bad input never adds or restores quota",
			fmt.Sprintf("200 with Remaining at most %d (limit - %d)", want, n), check.Describe(ex), s.Exchanges()...)
	}
	return nil
}
