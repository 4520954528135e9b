package embedded

import (
	"context"
	"errors"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
)

// Pair is the acceptance suite's embedded target: an enabled instance and
// its flag-off twin (AC8), each on a store of its own.
type Pair struct {
	URL         string // TARGET_URL
	DisabledURL string // TARGET_URL_DISABLED
	TargetDB    string // TARGET_DB of the enabled instance: sqlite:/path or postgres://…
	Description string // for reports: "embedded reference (fault none, sqlite)"
	// PenaltiesURL is TARGET_URL_PENALTIES: an instance with
	// Options.Penalties ("" without penalties); PenaltiesDB its TARGET_DB.
	PenaltiesURL string
	PenaltiesDB  string

	servers []*fakeserver.Running
	stores  *stores
	outage  outage
}

// StartPair starts both instances with limit, window and sentinel.
func StartPair(limit int, window time.Duration, sentinel int, o Options) (p *Pair, err error) {
	st, err := newStores(o.Store)
	if err != nil {
		return nil, err
	}
	p = &Pair{stores: st, Description: "embedded reference (" + o.profile() + "fault " + o.Fault.String() + ", " + string(st.kind) + ")"}
	defer func() {
		if err != nil {
			_ = p.Close()
			p = nil
		}
	}()
	cfg := o.base()
	cfg.Limit, cfg.Window, cfg.Sentinel = limit, window, sentinel
	if st.kind != fakeserver.StorePostgres {
		cfg.BusyTimeout = outageBusyTimeout
	}
	for _, enabled := range []bool{true, false} {
		c := cfg
		c.Enabled = enabled
		if err := st.configure(&c, ""); err != nil {
			return nil, err
		}
		run, err := o.start(c)
		if err != nil {
			return nil, err
		}
		p.servers = append(p.servers, run)
	}
	on := p.servers[0]
	p.URL, p.DisabledURL, p.TargetDB = on.URL, p.servers[1].URL, on.Server.TargetDB()
	if len(o.Penalties) > 0 {
		if err := p.startPenalties(cfg, o); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Close ends an outage, stops both instances and removes their stores.
func (p *Pair) Close() error {
	err := p.StoreUp(context.Background())
	return errors.Join(err, closeAll(p.servers, p.stores))
}
