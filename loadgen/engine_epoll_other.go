//go:build !linux

package loadgen

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"time"
)

// epollAvailable: the epoll engine is Linux only; elsewhere the closed loop
// runs a goroutine per connection.
const epollAvailable = false

type epollEngine struct{}

func newEpollEngine(*Attacker, net.Addr, int) (*epollEngine, error) {
	return nil, errors.New("the epoll engine needs Linux")
}

func (*epollEngine) recorders() []*recorder { return nil }

func (*epollEngine) run(context.Context, *atomic.Pointer[[][]byte], *atomic.Uint64, uint64, time.Time, time.Time) {
}
