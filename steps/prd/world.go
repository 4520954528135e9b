package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// World is what the PRD's steps of one scenario share: the device bucket
// under test, the last ride sent and the last batch of rides.
type World struct {
	*scenario.State
	Bucket Bucket
	Last   scenario.Last
	Batch  scenario.Batch

	enabled       bool            // false on the flag-off twin
	spoofer       scenario.Client // sends an untrusted X-Forwarded-For (spoofClient)
	address       addressLedger
	windowAssumed bool    // the bucket's one-window assumption is recorded
	rounds        []round // the buckets of a race on several (rounds.go)
}

// round is one bucket of a race on several: what the scenario knows of
// it, the units it had left and the batch it got.
type round struct {
	bucket Bucket
	left   int
	batch  scenario.Batch
}

// Bucket is what the scenario knows of the bucket it is testing.
type Bucket struct {
	ID     string               // the device bucket ("" until one is made)
	First  *httpclient.Exchange // first exchange on the bucket (or address)
	from   int                  // index of the current window's first exchange
	until  int                  // index where one window stops mattering (-1: never)
	spent  *httpclient.Exchange // last exchange whose headers say what is left
	seeded bool                 // left was set through TARGET_DB
	left   int
}

// New is a scenario's fresh PRD world on st: a failure is charged to a
// broken first request of its bucket, and an AC9 failure says what was
// spent under invalid device_bucket values.
func New(st *scenario.State) *World {
	w := &World{State: st, enabled: true}
	st.Explain(w.explainSpend)
	st.Attribute(w.attribute)
	return w
}

// Register registers the PRD's steps on w.
func Register(w *World, sc scenario.Stepper) {
	for _, register := range []func(scenario.Stepper){
		w.registerQuota, w.registerWindow, w.registerIdempotency, w.registerFallback,
		w.registerFlag, w.registerBadInput, w.registerConcurrency, w.registerRounds, w.registerHeaders, w.registerAuth,
	} {
		register(sc)
	}
}

// One sends a fresh request as the scenario's last exchange; the first one
// on a bucket also becomes its first exchange.
func (s *World) One(c scenario.Sender, f bodytmpl.BucketField) (*httpclient.Exchange, error) {
	return s.OneWith(c, f, nil)
}

// OneWith is One with header h added (may be nil).
func (s *World) OneWith(c scenario.Sender, f bodytmpl.BucketField, h http.Header) (*httpclient.Exchange, error) {
	if s.Bucket.First == nil {
		if err := s.alignWindowStart(); err != nil {
			return nil, err
		}
		s.Bucket.from, s.Bucket.until = s.Recorded(), -1
		if !s.windowAssumed {
			s.windowAssumed = true
			s.Assume("one window", func() string { return s.Refill(s.Bucket.from, s.Bucket.until) })
		}
	}
	r, ex, err := s.SendFresh(c, f, h)
	if ex == nil {
		return nil, err
	}
	s.Last = scenario.Last{Req: r, Ex: ex, Keyed: ex}
	if s.Bucket.First == nil {
		s.Bucket.First = ex
	}
	if err == nil && ex.Status < 500 {
		if _, perr := ex.RateLimit(); perr == nil {
			s.Bucket.spent = ex
		}
	}
	return ex, err
}
