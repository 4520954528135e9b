package probe

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
)

// A leaky bucket in LB_MODE=delay (nginx's limit_req without nodelay)
// answers the excess late instead of refusing it: a client that waits for
// each answer is held 1/R each time and never sees a refusal, however
// long it drains. Drain stops once its answers come back late, and Queue
// sends a burst on a fresh key at once: B + 1 are allowed, leaving 1/R
// apart, and the rest refused at once.

// Queued is what the burst showed.
type Queued struct {
	Sent    int
	Allowed int
	Span    time.Duration // from the first allowed answer to the last
	Delays  []time.Duration
}

// delayThreshold is how much later than the key's first answer an
// allowed answer must come to count as held back.
const delayThreshold = 200 * time.Millisecond

// minDelayed is how many late answers in a row stop the drain.
const minDelayed = 3

// heldBack reports an allowed answer that came back delayThreshold later
// than the first answer did.
func heldBack(first, sn Seen) bool {
	lat := func(x Seen) time.Duration { return x.Ex.Received.Sub(x.Ex.Sent) }
	return sn.Allowed() && lat(sn) >= lat(first)+delayThreshold
}

// Queue sends a burst on a fresh key where the drain's answers came back
// late, keeping Reserve requests for the strategies after it.
type Queue struct {
	Reserve int
	Max     int // the largest burst (0: 20)
}

// Run sends the burst.
func (q Queue) Run(ctx context.Context, s *Session) error {
	f := &s.F
	if len(f.Delays) < minDelayed || f.Refusal != nil {
		return nil
	}
	n := min(s.Left()-q.Reserve, cmp0(q.Max, 20))
	if n < 3 {
		f.unknown("the queue's length (RL_BURST): the answers came back late, and a burst to fill the queue needs more of the budget: a larger PROBE_BUDGET")
		return nil
	}
	seen, err := s.SendAll(ctx, "Q", n)
	if err != nil {
		return err
	}
	qd := &Queued{Sent: n}
	var at []time.Time
	for i := range seen {
		sn := seen[i]
		if sn.Allowed() {
			qd.Allowed++
			at = append(at, sn.Ex.Received)
			qd.Delays = append(qd.Delays, sn.Ex.Received.Sub(sn.Ex.Sent))
			continue
		}
		if f.Refusal == nil || sn.Ex.Received.Before(f.Refusal.Ex.Received) {
			f.Refusal = &seen[i]
		}
	}
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	if len(at) > 1 {
		qd.Span = at[len(at)-1].Sub(at[0])
	}
	f.Queue = qd
	if f.Refusal == nil {
		f.unknown("the queue's length (RL_BURST): all %d requests sent at once were allowed, so it holds at least %d: a larger PROBE_BUDGET", n, n-1)
	}
	return nil
}

func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// SendAll sends n requests with the probe key name at once, from client
// 0, and returns them in the order they were sent; the budget must allow
// all n.
func (s *Session) SendAll(ctx context.Context, name string, n int) ([]Seen, error) {
	if n > s.Left() {
		return nil, ErrBudget
	}
	if _, ok := s.keys[name]; !ok {
		s.keys[name] = s.newKey()
	}
	key := s.keys[name]
	out := make([]Seen, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() { out[i] = Seen{Key: name, Ex: s.target.Send(ctx, key, 0)} })
	}
	wg.Wait()
	for i := range out {
		if out[i].Ex.Err != nil {
			s.Seen = append(s.Seen, out[:i+1]...)
			return nil, fmt.Errorf("request %d: %w", len(s.Seen), out[i].Ex.Err)
		}
		out[i].Obs = s.Answer.Read(response(out[i].Ex))
	}
	s.Seen = append(s.Seen, out...)
	return out, nil
}

// rate is R as the burst's allowed answers leave: one every 1/R.
func (q *Queued) rate() (float64, string) {
	if q.Allowed < 2 || q.Span <= 0 {
		return 0, "the burst's answers did not leave apart"
	}
	est := float64(q.Allowed-1) / q.Span.Seconds()
	lo, hi := float64(q.Allowed-2)/q.Span.Seconds(), float64(q.Allowed)/q.Span.Seconds()
	why := fmt.Sprintf("the burst's %d allowed answers left over %s", q.Allowed, q.Span.Round(10*time.Millisecond))
	if best := nicest(est, lo, hi); best > 0 {
		return best, why
	}
	return math.Round(est*100) / 100, why + " (no round rate fits; measured)"
}

// leakySettings are RL_BURST, RL_RATE and LB_MODE=delay from the burst.
// Without a burst (the answers came back at once, or PROFILE=leaky-bucket
// was given) the key's B + 1 answered at once are a nodelay queue of B.
func (s *Session) leakySettings(g *Suggestion, n int64) {
	q := s.F.Queue
	if q == nil {
		g.set("RL_BURST", fmt.Sprint(max(n-1, 0)), "%d answered at once on a fresh key: one in service and a queue of %d", n, n-1)
		if r, why := s.rate(n); r > 0 {
			g.set("RL_RATE", formatRate(r), "%s", why)
		} else {
			g.set("RL_RATE", "1", "a placeholder: %s", why)
		}
		g.set("LB_MODE", "nodelay", "no answer came back late: the queue's places are answered at once")
		return
	}
	if s.F.Refusal != nil {
		g.set("RL_BURST", fmt.Sprint(q.Allowed-1), "%d of %d sent at once on a fresh key were allowed: one answered at once and a queue of %d", q.Allowed, q.Sent, q.Allowed-1)
	} else {
		g.set("RL_BURST", fmt.Sprint(q.Allowed-1), "a placeholder: all %d sent at once were allowed, so the queue is longer", q.Sent)
	}
	if r, why := q.rate(); r > 0 {
		g.set("RL_RATE", formatRate(r), "%s", why)
	} else {
		g.set("RL_RATE", "1", "a placeholder: %s", why)
	}
	g.set("LB_MODE", "delay", "excess waited its turn instead of being answered at once")
}

// durations lists a few durations for a sentence.
func durations(ds []time.Duration) string {
	out := ""
	for i, d := range ds {
		if i > 0 {
			out += ", "
		}
		out += d.Round(10 * time.Millisecond).String()
	}
	return out
}
