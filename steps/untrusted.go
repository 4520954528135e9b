package steps

import "github.com/rlspec/rlspec/httpclient"

// spoofClient is the client that sends an untrusted X-Forwarded-For
// (EXT-XFF-01). In bind mode it is the scenario's own. With
// CLIENT_IPS=xff the harness is the target's trusted proxy, so it is a
// client of the instance that trusts no proxy (Env.UntrustedURL, set by
// a TARGET_IMAGE start), sending from its own address without an
// X-Forwarded-For of its own; nil when there is none.
func (s *scenario) spoofClient() Client {
	cfg := s.env.Config
	if cfg.ClientIPs != httpclient.XFF {
		return s.theClient()
	}
	if s.env.UntrustedURL == "" {
		return nil
	}
	cfg.ClientIPs = httpclient.Bind
	c := httpclient.New(cfg, s.env.UntrustedURL)
	s.clients = append(s.clients, c)
	return c
}
