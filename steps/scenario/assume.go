package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
)

// assumption is a time assumption a check rests on (one window, two
// samples far enough apart at the server), verified after the scenario
// from the exchanges' send and receive times and their headers.
type assumption struct {
	what  string
	check func() string // "" when it held, else how it broke
}

// Recorded is how many exchanges the scenario has recorded so far.
func (s *State) Recorded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.all)
}

// AssumeOneWindow records that the verdict rests on the requests recorded
// at [from, to) (to < 0: to the end) being decided in one window.
func (s *State) AssumeOneWindow(from, to int) {
	s.Assume("one window", func() string { return s.OneWindow(from, to) })
}

// Assume records an assumption the scenario's verdict rests on.
func (s *State) Assume(what string, check func() string) {
	s.assumptions = append(s.assumptions, assumption{what: what, check: check})
}

// Broken is the first assumption that did not hold, "" when all held.
func (s *State) Broken() string {
	for _, a := range s.assumptions {
		if why := a.check(); why != "" {
			return a.what + " did not hold: " + why
		}
	}
	return ""
}

// settle makes sure no verdict rests on a broken time assumption: the
// scenario is run once more in fresh conditions (a fresh state, fresh
// buckets, fresh clients) and that run's verdict stands; when the
// assumption breaks again the scenario is SKIPPED with the reason. A step
// that sees an assumption cannot hold (no room left in the window) skips
// with it broken, and is run again the same way. It returns the scenario
// whose verdict counts.
func (s *State) settle(ctx context.Context) *State {
	why := s.Broken()
	if why == "" {
		return s // skips that rest on no time assumption stand
	}
	if len(s.texts) == 0 {
		s.err = Skip("%s: %s; the scenario could not be run again", TimeSkip, why)
		return s
	}
	again := newState(s.env, s.sets)
	again.texts, again.rerun, again.refs = s.texts, why, s.refs
	again.begin(ctx)
	again.start = s.start
	p := &Replayer{}
	again.register(p)
	for i, text := range s.texts {
		if again.err = p.Run(text); again.err != nil {
			again.failedStep = i + 1
			break
		}
	}
	again.finish()
	if why2 := again.Broken(); why2 != "" {
		again.err = Skip("%s twice: first %s; then %s", TimeSkip, why, why2)
	}
	return again
}

// TimeSkip begins the reason of a scenario skipped because a time
// assumption of its verdict broke (in its run and its run again): no
// verdict, said as such. Any other skip is the settings' or the target's.
const TimeSkip = "the verdict rests on a time assumption that broke"

// posts are the POST exchanges recorded at indexes [from, to) (to < 0:
// to the end) that the target answered.
func (s *State) posts(from, to int) []*httpclient.Exchange {
	all := s.Exchanges()
	if to < 0 || to > len(all) {
		to = len(all)
	}
	var out []*httpclient.Exchange
	for _, ex := range all[min(from, to):to] {
		if ex.Method == http.MethodPost && ex.Err == nil {
			out = append(out, ex)
		}
	}
	return out
}

// OneWindow checks that the requests recorded at indexes [from, to) were
// all decided inside one window, opened by the first of them: from the first
// send to the last receive less than RL_WINDOW - 1 s passed (a second is
// left for a server that stores Reset in whole seconds). Both times are the
// harness's and RL_WINDOW is the configured one: what is under test never
// decides whether the check applies — a Reset that moves with every
// response is the header clauses' verdict (FR-7: AC3-03,
// EXT-RESET-01), not a window that ended.
func (s *State) OneWindow(from, to int) string {
	exs := s.posts(from, to)
	if len(exs) == 0 {
		return ""
	}
	first, last := Span(exs)
	room := s.env.Config.Window - time.Second
	if span := last.Sub(first); span >= room {
		return fmt.Sprintf("%d requests spanned %s from the first send to the last response, not less than RL_WINDOW - 1s = %s",
			len(exs), span.Round(time.Millisecond), room)
	}
	return ""
}

// SamplesApart checks the two samples of a "does not move" check: the
// second (nil: none yet) was sent at least d after the first response came back (so the
// server's two decisions are at least d apart, however long the first
// request queued) and came back before end, the first window's end.
func SamplesApart(first, second *httpclient.Exchange, d time.Duration, end time.Time) string {
	if second == nil || second == first {
		return ""
	}
	if gap := second.Sent.Sub(first.Received); gap < d {
		return fmt.Sprintf("the second sample was sent %s after the first response came back, less than %s",
			gap.Round(time.Millisecond), d)
	}
	if second.Received.After(end) {
		return fmt.Sprintf("the second sample came back at %s, after the first window's end %s",
			second.Received.Format(time.RFC3339Nano), end.Format(time.RFC3339Nano))
	}
	return ""
}

// Refill checks that the fresh requests recorded at [from, to) (to < 0: to
// the end) stayed in one window per bucket: no response shows more units
// left than a response of the same bucket that came back before it was
// sent, or as many with a later Reset (a refill: a new window). Replays are left out (they repeat an
// earlier Remaining). A refill breaks the assumption only once a window
// could have ended, RL_WINDOW - 1 s after the bucket's first request was
// sent by the harness's clock; a refill sooner is the target's doing and
// the verdict stands.
func (s *State) Refill(from, to int) string {
	all := s.Exchanges()
	if to < 0 || to > len(all) {
		to = len(all)
	}
	type sample struct {
		ex   *httpclient.Exchange
		left int64
		rl   dialect.RateLimit
	}
	byBucket := map[string][]sample{}
	keys := map[string]bool{}
	for _, ex := range all[min(from, to):to] {
		if ex.Method != http.MethodPost || (ex.Status != http.StatusOK && !ex.Refused()) {
			continue
		}
		if k := ex.Header.Get(httpclient.HeaderIdemKey); k != "" {
			if keys[k] {
				continue // a replay
			}
			keys[k] = true
		}
		rl, err := ex.RateLimit()
		if err != nil {
			continue
		}
		b := BucketOf(ex)
		byBucket[b] = append(byBucket[b], sample{ex, rl.Remaining, rl})
	}
	room := s.env.Config.Window - time.Second
	for b, samples := range byBucket {
		start := samples[0].ex.Sent
		for _, x := range samples {
			if x.ex.Sent.Before(start) {
				start = x.ex.Sent
			}
		}
		for _, later := range samples {
			for _, earlier := range samples {
				// A fresh request decided after another spends, so it shows
				// fewer units left: as many or more is a refill, but for a
				// 429 at 0 under the same Reset.
				refilled := later.left > earlier.left ||
					(later.left == earlier.left && later.ex.Status == http.StatusOK && later.rl.Reset > earlier.rl.Reset+1)
				if later.ex.Sent.Before(earlier.ex.Received) || later.ex == earlier.ex || !refilled {
					continue
				}
				if later.ex.Received.Sub(start) < room {
					continue // too soon for a window to end: a verdict on the target
				}
				return fmt.Sprintf("bucket %s had %d units left (Reset %d), then %d (Reset %d) on a later request %s after its first was sent: a new window began",
					b, earlier.left, earlier.rl.Reset, later.left, later.rl.Reset, later.ex.Received.Sub(start).Round(time.Millisecond))
			}
		}
	}
	return ""
}

// BucketOf is the bucket a request is counted on: its device_bucket when
// that is 64 hex characters, else its client address.
func BucketOf(ex *httpclient.Exchange) string {
	var body struct {
		Bucket any `json:"device_bucket"`
	}
	if json.Unmarshal(ex.Body, &body) == nil {
		if id, ok := body.Bucket.(string); ok && ValidBucket(id) {
			return id
		}
	}
	return AddrKey(ex.ClientAddr)
}

// ValidBucket reports whether id is a device bucket: 64 hex characters.
func ValidBucket(id string) bool {
	if len(id) != 64 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// AddrKey is the bucket id of the address fallback.
func AddrKey(a netip.Addr) string { return "ip:" + a.String() }

// Span is the first send and the last receive of exs (not empty).
func Span(exs []*httpclient.Exchange) (first, last time.Time) {
	first, _ = SendSpan(exs)
	for _, ex := range exs {
		if ex.Received.After(last) {
			last = ex.Received
		}
	}
	return first, last
}

// SendSpan is the first and the last send of exs (not empty).
func SendSpan(exs []*httpclient.Exchange) (first, last time.Time) {
	first, last = exs[0].Sent, exs[0].Sent
	for _, ex := range exs {
		first, last = earliest(first, ex.Sent), latest(last, ex.Sent)
	}
	return first, last
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
