package prd

import (
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// spoofClient is the client that sends an untrusted X-Forwarded-For
// (EXT-XFF-01). In bind mode it is the scenario's own. With
// CLIENT_IPS=xff the harness is the target's trusted proxy, so it is a
// client of the instance that trusts no proxy (Config.UntrustedURL, set by
// a TARGET_IMAGE start), sending from its own address without an
// X-Forwarded-For of its own; nil when there is none.
func (s *World) spoofClient() scenario.Client {
	cfg := s.Env().Config
	if cfg.ClientIPs != service.ClientIPsXFF {
		return s.Client()
	}
	if cfg.UntrustedURL == "" {
		return nil
	}
	cfg.ClientIPs = service.ClientIPsBind
	c := service.NewClient(cfg, cfg.UntrustedURL)
	s.Track(c)
	return c
}
