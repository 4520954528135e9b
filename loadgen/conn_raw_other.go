//go:build !linux

package loadgen

import (
	"errors"
	"net"
)

// rawIO is the Linux fast path of a plain TCP connection; elsewhere
// connections use net.Conn's reads and writes.
type rawIO struct{}

func newRawIO(net.Conn) *rawIO { return nil }

func (*rawIO) send([]byte)              {}
func (*rawIO) flush() error             { return nil }
func (*rawIO) Read([]byte) (int, error) { return 0, errors.New("no raw connection on this platform") }
