package embedded

import (
	"strings"

	"github.com/rlspec/rlspec/fakeserver"
)

// startPenalties starts the instance with o.Penalties beside the enabled
// one, on its store (so TARGET_DB seeds and ages its violation records and
// an outage takes both away): the profile's core clauses are checked on
// the instance without penalties, PN-1 … PN-5 on this one (profiles.md).
func (p *Pair) startPenalties(cfg fakeserver.Config, o Options) error {
	on := p.servers[0].Server.Config()
	cfg.Enabled, cfg.Penalties = true, o.Penalties
	cfg.Store, cfg.DatabaseURL = on.Store, on.DatabaseURL
	if on.Store != fakeserver.StorePostgres {
		cfg.DBPath = strings.TrimPrefix(p.TargetDB, "sqlite:")
	}
	run, err := o.start(cfg)
	if err != nil {
		return err
	}
	p.servers = append(p.servers, run)
	p.PenaltiesURL = run.URL
	return nil
}
