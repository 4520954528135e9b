package leakybucket

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// Refusal503 is the fault LBRefusal503 (its Name says what it breaks).
func Refusal503() fault.Fault {
	return fault.Fault{
		Name:        LBRefusal503,
		Breaks:      clause.Of(clause.LB5),
		Description: "a refusal answered 503 (nginx limit_req_status's default) where LIMITED_STATUS=429 is claimed",
		Seed:        "nginx limit_req_status: default 503",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-5-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.Intercept(func(cfg fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(&statusRewrite{ResponseWriter: w, from: cfg.Answers().Status(), to: http.StatusServiceUnavailable}, r)
		}),
	}
}

// statusRewrite answers status to where the handler wrote from.
type statusRewrite struct {
	http.ResponseWriter
	from, to int
}

func (w *statusRewrite) WriteHeader(status int) {
	if status == w.from {
		status = w.to
	}
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusRewrite) Unwrap() http.ResponseWriter { return w.ResponseWriter }
