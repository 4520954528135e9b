package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/reference"
)

// IETFPolicy names the one quota policy of the IETF fields.
const IETFPolicy = "default"

// ParseDialect reads RL_DIALECT: x-ratelimit (or "": the X-RateLimit-*
// headers only) or ietf (also RateLimit and RateLimit-Policy,
// draft-ietf-httpapi-ratelimit-headers-11); it reports whether the IETF
// fields are added.
func ParseDialect(s string) (bool, error) {
	switch strings.TrimSpace(s) {
	case "", "x-ratelimit":
		return false, nil
	case "ietf":
		return true, nil
	}
	return false, fmt.Errorf("%q is neither x-ratelimit nor ietf", s)
}

// ietfFields adds RateLimit-Policy `"default";q=N;w=W` and RateLimit
// `"default";r=Remaining;t=Reset − now` when the server answers in the ietf
// dialect too.
func (s *Server) ietfFields(h http.Header, d reference.Decision, window time.Duration) {
	if !s.cfg.IETF {
		return
	}
	now := s.cfg.ClockOrWall().Now().Unix()
	if err := dialect.FormatIETF(h, IETFPolicy, d.Limit, window, int64(d.Remaining), max(d.Reset-now, 0)); err != nil {
		s.log.Error("ietf fields", "err", err)
	}
}
