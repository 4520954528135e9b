package fakeserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Ride is what the server reads from a request body.
type Ride struct {
	// DeviceBucket is the top-level device_bucket when it is a JSON string.
	DeviceBucket string
	// HasBucket tells whether device_bucket was a string at all.
	HasBucket bool
}

// InputError is a rejected body: a stable code, a message and, for a body
// that is well-formed JSON but not a ride, the detail of what is wrong.
type InputError struct {
	Code, Message string
	Detail        string // "" when Message says it all
}

func (e *InputError) Error() string {
	if e.Detail != "" {
		return e.Code + ": " + e.Message + ": " + e.Detail
	}
	return e.Code + ": " + e.Message
}

// rideField reports whether k may appear at the top level of a ride body:
// everything bodytmpl.Default sends, plus device_bucket.
func rideField(k string) bool {
	switch k {
	case "route_id", "direction_id", "segments", "submitted_at", "nonce", "device_bucket":
		return true
	}
	return false
}

// segmentField reports whether k may appear in a segment object.
func segmentField(k string) bool {
	switch k {
	case "from_stop_id", "to_stop_id", "duration_sec", "dwell_sec", "mapmatch_conf", "observed_at_utc":
		return true
	}
	return false
}

func invalidJSON() *InputError {
	return &InputError{Code: "invalid_json", Message: "the body is not well-formed JSON"}
}

func invalidBody(format string, args ...any) *InputError {
	return &InputError{Code: "invalid_body", Message: "the body is not a ride summary", Detail: fmt.Sprintf(format, args...)}
}

// ParseRide checks that body is one well-formed JSON object in valid UTF-8
// with no duplicate top-level keys and no unknown field (rideField; in the
// segments array of objects, segmentField), and extracts
// device_bucket. Field values other than segments' shape are not
// interpreted.
func ParseRide(body []byte) (Ride, *InputError) {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return Ride{}, &InputError{Code: "empty_body", Message: "the body is empty"}
	case !utf8.Valid(body):
		return Ride{}, &InputError{Code: "invalid_utf8", Message: "the body is not valid UTF-8"}
	case !json.Valid(trimmed):
		return Ride{}, invalidJSON()
	case trimmed[0] != '{':
		return Ride{}, &InputError{Code: "not_object", Message: "the body must be a JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil {
		return Ride{}, invalidJSON()
	}
	var ride Ride
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Ride{}, invalidJSON()
		}
		k, _ := tok.(string)
		if seen[k] {
			return Ride{}, &InputError{Code: "duplicate_key", Message: fmt.Sprintf("the field %q appears more than once", truncate(k, 40))}
		}
		seen[k] = true
		if !rideField(k) {
			return Ride{}, invalidBody("unknown field %q", truncate(k, 40))
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return Ride{}, invalidJSON()
		}
		switch k {
		case "device_bucket":
			var v string
			if json.Unmarshal(raw, &v) == nil {
				ride.DeviceBucket, ride.HasBucket = v, true
			}
		case "segments":
			if perr := checkSegments(raw); perr != nil {
				return Ride{}, perr
			}
		}
	}
	return ride, nil
}

// checkSegments requires an array of objects with known fields only.
func checkSegments(raw json.RawMessage) *InputError {
	var segs []json.RawMessage
	if json.Unmarshal(raw, &segs) != nil || segs == nil {
		return invalidBody("segments must be an array of objects")
	}
	for i, seg := range segs {
		var fields map[string]json.RawMessage
		if json.Unmarshal(seg, &fields) != nil || fields == nil {
			return invalidBody("segments[%d] must be an object", i)
		}
		for k := range fields {
			if !segmentField(k) {
				return invalidBody("unknown field %q in segments[%d]", truncate(k, 40), i)
			}
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
