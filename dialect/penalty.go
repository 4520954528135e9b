package dialect

import (
	"bytes"
	"encoding/json"
)

// PenaltyOf reads a 429 body's penalty marker (profiles.md, penalties,
// PN-1): penalty_active true and penalty_until (unix seconds), at the top
// level as spec/003's RateLimitResult or under /error. A body without the
// marker, or not JSON, is no penalty: a refusal of the algorithm.
func PenaltyOf(body []byte) (active bool, until int64) {
	if !bytes.Contains(body, []byte(`"penalty_active"`)) {
		return false, 0 // the common case, without decoding
	}
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return false, 0
	}
	for _, at := range []string{"", "/error"} {
		a, _ := JSONPointer(doc, at+"/penalty_active")
		u, _ := JSONPointer(doc, at+"/penalty_until")
		if a == true {
			f, _ := u.(float64)
			return true, int64(f)
		}
	}
	return false, 0
}
