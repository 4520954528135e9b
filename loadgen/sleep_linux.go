//go:build linux

package loadgen

import (
	"syscall"
	"time"
)

// preciseSleep blocks the calling thread in nanosleep(2): the kernel wakes it
// within its timer slack (~50 µs), where a Go timer parked in the netpoller
// only has millisecond resolution.
func preciseSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		err := syscall.Nanosleep(&ts, &rem)
		if err != syscall.EINTR {
			return
		}
		ts = rem
	}
}
