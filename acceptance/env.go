package acceptance

import (
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// Reached is the run-time side of a target: where the instances a command
// started, or TARGET_URLS named, answer.
type Reached struct {
	// URLs are every flag-on instance of the service on one store,
	// Target.URL first: TARGET_URLS, or the replicas a command started
	// (REPLICAS); nil: Target.URL alone.
	URLs []string
	// UntrustedURL is an instance that trusts no proxy, which EXT-XFF-01
	// reaches with CLIENT_IPS=xff from its own source address (a
	// TARGET_IMAGE start fills it); "": none.
	UntrustedURL string
	// PenaltiesDB is the TARGET_DB of the penalties instance when it has a
	// store of its own (an embedded start); "": Target.DB.
	PenaltiesDB string
}

// NewEnv returns the steps' environment for tc (URL set) reached as r, and
// a function closing what it opened (the TARGET_DB seeders); STORE_DOWN_CMD
// and STORE_UP_CMD become its store control.
func NewEnv(tc service.Config, r Reached) (*steps.Env, func(), error) {
	env, err := steps.NewEnv(tc, tc.URL, tc.DisabledURL)
	if err != nil {
		return nil, nil, err
	}
	if len(r.URLs) > 0 && r.URLs[0] == tc.URL {
		env.URLs = r.URLs
	}
	env.UntrustedURL = r.UntrustedURL
	if tc.StoreDownCmd != "" {
		env.Store = steps.CommandStore{Down: tc.StoreDownCmd, Up: tc.StoreUpCmd}
	}
	closer := func() {}
	if tc.DB != "" && tc.SQL == "" { // a SQL target's rows are aged through its transport
		seeder, err := steps.OpenSeeder(tc, nil)
		if err != nil {
			return nil, nil, err
		}
		env.Seeder = seeder
		closer = func() { _ = seeder.Close() }
	}
	if r.PenaltiesDB != "" && r.PenaltiesDB != tc.DB {
		pc := tc
		pc.DB = r.PenaltiesDB
		seeder, err := steps.OpenSeeder(pc, nil)
		if err != nil {
			closer()
			return nil, nil, err
		}
		env.PenaltySeeder = seeder
		prev := closer
		closer = func() { prev(); _ = seeder.Close() }
	}
	return env, closer, nil
}
