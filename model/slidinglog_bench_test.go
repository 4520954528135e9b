package model

import (
	"testing"
	"time"
)

// BenchmarkSlidingLogStep is one allowed step of a sliding log holding 80
// entries (the PostgreSQL benchmark's steady state, VsPgbench): the log
// decoded from its text, the request appended, the text encoded again.
//
//	go test -run '^$' -bench SlidingLogStep -benchmem ./model
func BenchmarkSlidingLogStep(b *testing.B) {
	m := SlidingLog{Limit: 100, Window: time.Minute}
	at := time.UnixMilli(1_700_000_000_000)
	log := make([]int64, 80)
	for i := range log {
		log[i] = at.UnixMilli() - int64(80-i)*750
	}
	st := State{Found: true, Remaining: 20, Log: EncodeLog(log)}
	for b.Loop() {
		if _, d := m.Step(st, Request{Cost: 1}, at); !d.Allowed {
			b.Fatal("refused")
		}
	}
}
