//go:build !linux

package loadgen

import "time"

// preciseSleep falls back to a Go timer where nanosleep(2) is not available.
func preciseSleep(d time.Duration) { time.Sleep(d) }
