package probe

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// Keying is what keys the target's clients, as far as the probe saw.
type Keying string

// The keyings a probe tells apart.
const (
	KeyedUnknown   Keying = ""
	KeyedByKey     Keying = "key"     // the KEY the probe sent
	KeyedByAddress Keying = "address" // the client address (KEY=ip)
	KeyedShared    Keying = "shared"  // one quota for every client the probe was
)

// Findings are what a probe saw, each with how it was seen; nothing here
// is a verdict.
type Findings struct {
	Detection   dialect.Detection
	First       *Seen // the fresh key's first answer
	LastAllowed *Seen // its last allowed answer before the refusal
	Allowed     int   // allowed on the fresh key before the first refusal
	Refusal     *Seen // the first refusal
	LimitHeader int64 // the Limit field of the first answer; 0 none
	Keying      Keying
	KeyingHow   string
	Refilled    *Refilled
	Spread      *Spreading
	Reopen      *Reopened // the refused key tried when the shorter window would have ended
	// Delays are how long the drain's allowed answers that came back late
	// took; Queue the burst sent then.
	Delays []time.Duration
	Queue  *Queued
	Again  *Looked // the second look after a partial return
	// Unknown are what the probe could not tell, each a sentence saying
	// what telling it would take.
	Unknown []string
}

// Refilled is what came back on the refused key after waiting.
type Refilled struct {
	Waited  time.Duration
	Elapsed time.Duration // from the last allowed answer to the first after the wait
	First   *Seen
	Allowed int // allowed after the wait (counted, or Remaining + 1)
	Partial bool
	// Polled: the refusal did not say when, so the key was tried after
	// growing waits; the quota came back within the last of them.
	Polled bool
	// StillRefused is when the last try before First was sent (refused).
	StillRefused time.Time
}

func (f *Findings) unknown(format string, a ...any) {
	f.Unknown = append(f.Unknown, fmt.Sprintf(format, a...))
}

// comesBack is how long after the refusal its key is allowed again, as the
// refusal says: Retry-After, else Reset; 0 when it says neither.
func (f *Findings) comesBack() time.Duration {
	o := f.Refusal.Obs
	if o.Has(dialect.FieldRetryAfter) && o.RetryAfterErr == nil {
		return o.RetryAfter
	}
	if o.Has(dialect.FieldReset) && o.Err == nil {
		return max(o.Reset.Sub(f.Refusal.Ex.Received), 0)
	}
	return 0
}

// refillNeed is how many requests watching the quota come back takes.
func (f *Findings) refillNeed() int {
	if f.First != nil && f.First.Obs.Has(dialect.FieldRemaining) {
		return 1
	}
	return int(f.LimitHeader) + 1
}

// resetIn is how far the answer's Reset lies after it was received, in
// whole seconds (rounded); ok is false without a readable Reset.
func resetIn(s *Seen) (secs int64, ok bool) {
	if s == nil || !s.Obs.Has(dialect.FieldReset) || s.Obs.Err != nil {
		return 0, false
	}
	return int64(s.Obs.Reset.Sub(s.Ex.Received).Round(time.Second) / time.Second), true
}

// excerpt is the start of a body on one line, quoted, for a sentence.
func excerpt(b []byte) string {
	if s := strings.Join(strings.Fields(string(b)), " "); s != "" {
		return fmt.Sprintf(" %.120q", s)
	}
	return ""
}
