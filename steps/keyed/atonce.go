package keyed

import (
	"fmt"
	"slices"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// Requests released together: a batch comes back within about one
// request's time even from a slow target, where the same requests one
// after another could outlast the window or the refill interval that a
// check rests on.

// SendAtOnce releases n requests of the key together as one run, counted
// as SendKeyed counts them: each 2xx spends, and the earliest sent opens
// the key's window when none is open.
func (s *World) SendAtOnce(n int) ([]*httpclient.Exchange, error) {
	if s.Key.Client == nil {
		return nil, scenario.Precondition(fmt.Errorf("no key: the scenario must start with a fresh key or client address"))
	}
	run, err := s.fireKeyed(s.Key.Client, s.KeyedN(s.Key.Value, n))
	s.Key.Runs = append(s.Key.Runs, run)
	s.spent(run)
	return run, err
}

// SendEachAtOnce releases one request of the key through each of cs (the
// instances' clients: MI-1) together, counted as SendAtOnce counts them;
// the requests are not a run of their own.
func (s *World) SendEachAtOnce(cs []scenario.Sender) ([]*httpclient.Exchange, error) {
	out, err := s.fireEach(cs, s.KeyedN(s.Key.Value, len(cs)))
	s.spent(out)
	return out, err
}

// spent counts run's 2xx answers as the key's, in the order they were
// sent.
func (s *World) spent(run []*httpclient.Exchange) {
	bySend := slices.Clone(run)
	slices.SortFunc(bySend, func(a, b *httpclient.Exchange) int { return a.Sent.Compare(b.Sent) })
	for _, ex := range bySend {
		if ex != nil && ex.Status/100 == 2 {
			s.Key.Spent++
			if s.Key.Opened == nil {
				s.Key.Opened = ex
			}
		}
	}
}

// fireKeyed sends reqs concurrently with c, released together.
func (s *World) fireKeyed(c scenario.Sender, reqs []httpclient.Request) ([]*httpclient.Exchange, error) {
	cs := make([]scenario.Sender, len(reqs))
	for i := range cs {
		cs[i] = c
	}
	return s.fireEach(cs, reqs)
}

// fireEach sends reqs[i] with cs[i], all released together (no
// pre-dialling: a HEAD may spend where a limiter keys by address), and
// records the exchanges.
func (s *World) fireEach(cs []scenario.Sender, reqs []httpclient.Request) ([]*httpclient.Exchange, error) {
	batches := make([]scenario.Dialed, len(reqs))
	for i, r := range reqs {
		batches[i] = scenario.Dialed{Sender: cs[i], Reqs: []httpclient.Request{r}}
	}
	byBatch, err := s.FireDialedAll(batches, time.Time{})
	out := make([]*httpclient.Exchange, len(reqs))
	for i, exs := range byBatch {
		out[i] = exs[0]
	}
	return out, err
}
