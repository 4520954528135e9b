package prd

import (
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// spoofClient is the client that sends an untrusted X-Forwarded-For
// (EXT-XFF-01). In bind mode it is the scenario's own. With
// CLIENT_IPS=xff the harness is the target's trusted proxy, so it is a
// client of the instance that trusts no proxy (Env.UntrustedURL, set by
// a TARGET_IMAGE start), sending from its own address without an
// X-Forwarded-For of its own; nil when there is none.
func (s *World) spoofClient() scenario.Client {
	env := s.Env()
	cfg := env.Config
	if cfg.ClientIPs != httpclient.XFF {
		return s.Client()
	}
	if env.UntrustedURL == "" {
		return nil
	}
	cfg.ClientIPs = httpclient.Bind
	c := httpclient.New(cfg, env.UntrustedURL)
	s.Track(c)
	return c
}
