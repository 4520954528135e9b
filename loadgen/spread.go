package loadgen

import (
	"context"
	"errors"
	"sync/atomic"
)

// SpreadDialer spreads connections over several instances of one service
// (replicas on one store): each Dial goes to the next of its dialers in
// turn, so the attack's connections, and the requests on them, are shared
// evenly among the instances.
type SpreadDialer struct {
	dialers []Dialer
	next    atomic.Uint64
}

var _ Dialer = (*SpreadDialer)(nil)

// NewSpreadDialer returns a dialer taking turns over dialers (at least one).
func NewSpreadDialer(dialers ...Dialer) (*SpreadDialer, error) {
	if len(dialers) == 0 {
		return nil, errors.New("spread dialer: no dialer")
	}
	return &SpreadDialer{dialers: dialers}, nil
}

// Dial dials the next dialer in turn.
func (d *SpreadDialer) Dial(ctx context.Context) (Conn, error) {
	i := (d.next.Add(1) - 1) % uint64(len(d.dialers))
	return d.dialers[i].Dial(ctx)
}
