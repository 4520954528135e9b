package scenario

import (
	"context"
	"net/netip"
	"time"

	"github.com/rlspec/rlspec/httpclient"
)

// Sender sends one request to the target and records the exchange. It never
// returns nil; transport failures are in Exchange.Err.
type Sender interface {
	Do(ctx context.Context, r httpclient.Request) *httpclient.Exchange
}

// Client is a Sender bound to one client address.
type Client interface {
	Sender
	Addr() netip.Addr
	Close()
}

var (
	_ Sender = (*httpclient.Client)(nil)
	_ Client = (*httpclient.Client)(nil)
)

// ClientFactory returns a client of the endpoint on base with a fresh client
// address.
type ClientFactory func(base string) Client

// StateSeeder changes a bucket's stored state (TARGET_DB). It only updates
// rows that the bucket's first request created; a bucket without a row is
// an error that says how bucket ids must be stored.
type StateSeeder interface {
	// SetRemaining sets the bucket's remaining quota to n.
	SetRemaining(ctx context.Context, bucketID string, n int) error
	// ExpireWindow moves the bucket's window into the past.
	ExpireWindow(ctx context.Context, bucketID string) error
}

// StoreControl takes the target's store away and brings it back, for the
// fail-mode scenarios (FAIL-1, FAIL-2): the embedded reference's own hook,
// or STORE_DOWN_CMD / STORE_UP_CMD.
type StoreControl interface {
	// StoreDown returns once the store is unavailable.
	StoreDown(ctx context.Context) error
	// StoreUp returns once the store is available again.
	StoreUp(ctx context.Context) error
}

// Recorder receives the verdict of every scenario as it ends. It must be
// safe for concurrent use.
type Recorder interface {
	Record(ScenarioResult)
}

// Restarter restarts the target on its store (PS-1): the embedded
// reference's servers in process, TARGET_IMAGE's containers on their volume.
type Restarter interface {
	// Restart returns once every restarted instance answers again, at the
	// same URLs.
	Restart(ctx context.Context) error
}

// KeyAger moves a key's stored window d into the past (TARGET_DB aging of
// spec/004's rpc_rate_limits row): for that key's state, the same as d
// passing. A key without stored state is left as it is.
type KeyAger interface {
	Age(ctx context.Context, key string, d time.Duration) error
}
