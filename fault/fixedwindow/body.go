package fixedwindow

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// Body is the fault FWBody (its Name says what it breaks).
func Body() fault.Fault {
	return fault.Fault{
		Name:        FWBody,
		Breaks:      clause.Of(clause.FW6),
		Description: `a 429 whose body is not LIMITED_BODY's (spec/003's {"error":"Rate limit exceeded"} where /error/code=RATE_LIMITED is claimed)`,
		Seed:        "spec/003's 429 body",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-6-01"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.Intercept(func(cfg fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(&bodyRewrite{ResponseWriter: w, refusal: cfg.Answers().Status()}, r)
		}),
	}
}

// bodyRewrite replaces the body of a refusal (status refusal).
type bodyRewrite struct {
	http.ResponseWriter
	refusal int
	limited bool
}

func (w *bodyRewrite) WriteHeader(status int) {
	if w.limited = status == w.refusal; w.limited {
		w.Header().Del("Content-Length")
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *bodyRewrite) Write(b []byte) (int, error) {
	if !w.limited {
		return w.ResponseWriter.Write(b)
	}
	if _, err := w.ResponseWriter.Write([]byte(`{"error":"Rate limit exceeded"}`)); err != nil {
		return 0, err
	}
	return len(b), nil // the reference's body is dropped
}
