package fakeserver

import (
	"encoding/json"
	"net/http"
	"strconv"
)

func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > MaxIdempotencyKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeInputError is a 400 for a rejected body, with its detail when it has
// one: {"error":"invalid_body","message":"…","detail":"unknown field \"x\""}.
func writeInputError(w http.ResponseWriter, e *InputError) {
	v := map[string]string{"error": e.Code, "message": e.Message}
	if e.Detail != "" {
		v["detail"] = e.Detail
	}
	b, _ := json.Marshal(v)
	writeJSON(w, http.StatusBadRequest, b)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	b, _ := json.Marshal(map[string]string{"error": code, "message": msg})
	writeJSON(w, status, b)
}
