package embedded

import (
	"github.com/rlspec/rlspec/fakeserver"
)

// startPenalties starts the instance with o.Penalties beside the enabled
// one, on a store of its own (PenaltiesDB; two SQLite writers on one file
// would make each other busy under load): the profile's core clauses are
// checked on the instance without penalties, PN-1 … PN-5 on this one
// (profiles.md).
func (p *Pair) startPenalties(cfg fakeserver.Config, o Options) error {
	cfg.Enabled, cfg.Penalties = true, o.Penalties
	if err := p.stores.configure(&cfg, ""); err != nil {
		return err
	}
	run, err := o.start(cfg, "127.0.0.1:0")
	if err != nil {
		return err
	}
	p.servers = append(p.servers, run)
	p.PenaltiesURL, p.PenaltiesDB = run.URL, run.Server.TargetDB()
	return nil
}
