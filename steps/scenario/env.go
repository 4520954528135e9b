package scenario

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// Env is what every scenario shares: the settings, the target's base URLs
// and the means to reach it. It is read-only once the suite runs.
type Env struct {
	Config service.Config // limits, window, sentinel, CLIENT_IPS
	URL    string         // base URL of the enabled target
	// URLs are every enabled instance's base URL on one store, URL first
	// (TARGET_URLS, REPLICAS): the multi-instance scenarios (MI-1) spread
	// their requests over them, the others use URL.
	URLs        []string
	DisabledURL string // base URL of the flag-off twin; "" skips AC8
	// UntrustedURL is an instance that trusts no proxy, which EXT-XFF-01
	// reaches with CLIENT_IPS=xff from its own source address (a
	// TARGET_IMAGE start); "": none.
	UntrustedURL string
	Body         *bodytmpl.Body
	Seeder       StateSeeder // nil without TARGET_DB
	// PenaltySeeder is the penalties instance's TARGET_DB when it has a
	// store of its own (the embedded reference); nil: Seeder.
	PenaltySeeder StateSeeder
	Store         StoreControl // nil: the fail-mode scenarios skip
	Restarter     Restarter    // nil: the persistence scenario skips
	// Ager, when set, stands in for waiting on a key's window: a scenario
	// with a key ages the key's stored window instead of sleeping, and
	// moves its own clock (and its exchanges' timestamps) on by as much
	// (timemachine.go). TARGET_SQL sets it: spec/004's windows are minutes.
	Ager      KeyAger
	NewClient ClientFactory
	Recorder  Recorder // may be nil
	Now       func() time.Time
	// MaxWait is the longest a scenario waits for a window to pass
	// (MAX_WAIT); a longer wait skips the scenario with the reason.
	MaxWait time.Duration
	// Wait waits until the clock reads until, or ctx ends (default: a timer
	// on Now's clock). Tests that advance a fake Now set it.
	Wait func(ctx context.Context, until time.Time) error
	// ScenarioTimeout bounds every scenario (default MAX_WAIT + 60s).
	ScenarioTimeout time.Duration
	// Stalls is how long rlspec's own process could not run within
	// [from, to] (internal/stall); nil: never measured, taken as none.
	Stalls func(from, to time.Time) time.Duration

	// Turns, when set, orders the scenarios that run alone among the
	// others (nil: the first to take the lock goes first).
	Turns *Turns

	// outage lets a scenario that takes the store away run alone: it
	// holds the write lock, every other scenario a read lock.
	outage sync.RWMutex
}

// NewEnv returns an Env for cfg against url (and disabled, may be empty)
// with httpclient.Client clients and the default body or BODY_TEMPLATE.
func NewEnv(cfg service.Config, url, disabled string) (*Env, error) {
	body, err := bodytmpl.Load(cfg.BodyTemplate)
	if err != nil {
		return nil, err
	}
	return &Env{
		Config:      cfg,
		URL:         url,
		URLs:        instanceURLs(url),
		DisabledURL: disabled,
		Body:        body,
		NewClient: func(base string) Client {
			return httpclient.New(cfg, base)
		},
		Now:     time.Now,
		MaxWait: service.DefaultMaxWait,
	}, nil
}

// instanceURLs is url alone; a run of several instances sets Env.URLs.
func instanceURLs(url string) []string {
	if url == "" {
		return nil
	}
	return []string{url}
}

// Clock is the wall clock's time: Now, or time.Now when unset.
func (e *Env) Clock() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Env) scenarioTimeout() time.Duration {
	if e.ScenarioTimeout > 0 {
		return e.ScenarioTimeout
	}
	return e.MaxWait + 60*time.Second
}

// Claimed is nil when the target's FEATURES claims the extended feature f,
// and otherwise the skip that says it does not.
func (e *Env) Claimed(f profile.Feature) error {
	if e.Config.Claims(f) {
		return nil
	}
	return Skip("%s FEATURES does not include %s", NotClaimed, f)
}

// Configured is Claimed(f), then, when the claimed feature is not
// configured, the precondition failure unset says.
func (e *Env) Configured(f profile.Feature, configured bool, unset string) error {
	if err := e.Claimed(f); err != nil || configured {
		return err
	}
	return Precondition(errors.New(unset))
}
