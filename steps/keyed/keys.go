package keyed

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// Key is the key under test of a profile other than the PRD: its
// value as sent (KEY_FORMAT applied to a fresh id; "" sends no key, so the
// client address keys the request) and the client that sends it.
type Key struct {
	Value  string
	Client scenario.Client
	Runs   [][]*httpclient.Exchange // the batches sent with the key, in order
	// fixed windows: the exchange that opened the current window
	// (first-request), the allowed requests in it, and its end (epoch)
	Opened *httpclient.Exchange
	Spent  int
	End    time.Time
	// Ended is the end of the window "the window ends" waited for
	// (ended.go); zero before.
	Ended time.Time
}

// registerKeys registers the steps that make keys and send with them.
func (s *World) registerKeys(sc scenario.Stepper) {
	sc.Step(`^a fresh key$`, s.freshKey)
	sc.Step(`^a fresh client address$`, s.freshAnonymous)
	sc.Step(`^N requests are sent with the key$`, s.NAllowed)
	sc.Step(`^N requests are sent with the key at once$`, s.NAllowedAtOnce)
	sc.Step(`^N requests are sent without the key at once$`, s.NAllowedAtOnce)
	sc.Step(`^N requests are sent without the key$`, s.NAllowed)
	sc.Step(`^N\+1 requests are sent with the key within one second$`, s.burstWithinSecond)
	sc.Step(`^N\+(\d+) requests are sent with the key concurrently$`, s.concurrentKeyed)
	sc.Step(`^the next request (?:with|without) the key is refused with 429$`, s.nextRefused)
	sc.Step(`^(\d+) seconds? pass(?:es)?$`, s.secondsPass)
	sc.Step(`^exactly N of them were allowed and the rest refused with 429$`, s.ExactlyN)
}

// NewKey returns a fresh key value rendered with KEY_FORMAT.
func (s *World) NewKey() (string, error) {
	v, err := s.Env().Config.RenderKey(bodytmpl.NewUUID())
	if err != nil {
		return "", scenario.Precondition(err)
	}
	return v, nil
}

func (s *World) freshKey() error {
	v, err := s.NewKey()
	if err != nil {
		return err
	}
	s.Key = Key{Value: v, Client: s.NewClient()}
	return nil
}

// freshAnonymous is a fresh client address sending no key.
func (s *World) freshAnonymous() error {
	if cfg := s.Env().Config; cfg.SQL != "" && !cfg.Claims(profile.AnonymousOpen) {
		return scenario.Skip("TARGET_SQL: a call without a caller has no client address to be keyed by; only anonymous-open (auth.uid() NULL allowed) can be checked, and it is not claimed")
	}
	s.Key = Key{Client: s.NewClient()}
	return nil
}

// Keyed is a request carrying key (none when "") as KEY says: a header, a
// JSON body field, or nothing (ip: the client address is the key).
func (s *World) Keyed(key string) httpclient.Request {
	return s.Env().Config.KeyedRequest(key)
}

// KeyedN is n requests with key, for one batch.
func (s *World) KeyedN(key string, n int) []httpclient.Request {
	reqs := make([]httpclient.Request, n)
	for i := range reqs {
		reqs[i] = s.Keyed(key)
	}
	return reqs
}

// KeyOf names an exchange's key for the bound checks: the key it carried,
// or its client address.
func (s *World) KeyOf(ex *httpclient.Exchange) string {
	cfg := s.Env().Config
	if cfg.Key.Kind == service.KeyHeader {
		if v := ex.Header.Get(cfg.Key.Name); v != "" {
			return v
		}
	}
	if cfg.Key.Kind == service.KeyBody && len(ex.Body) > 0 {
		var m map[string]any
		if json.Unmarshal(ex.Body, &m) == nil {
			if v, ok := m[cfg.Key.Name].(string); ok {
				return v
			}
		}
	}
	return "ip:" + ex.ClientAddr.String()
}

// SendKeyed sends one request of the scenario's key and records it.
func (s *World) SendKeyed() (*httpclient.Exchange, error) {
	if s.Key.Client == nil {
		return nil, scenario.Precondition(fmt.Errorf("no key: the scenario must start with a fresh key or client address"))
	}
	return s.SendKeyedWith(s.Key.Client)
}

// SendKeyedWith sends one request of the scenario's key with c (the key's
// client, or another instance's: MI-1) and records it.
func (s *World) SendKeyedWith(c scenario.Sender) (*httpclient.Exchange, error) {
	ex, err := s.Send(c, s.Keyed(s.Key.Value))
	if ex != nil {
		s.Last = scenario.Last{Req: s.Keyed(s.Key.Value), Ex: ex}
		if ex.Status/100 == 2 {
			s.Key.Spent++
			if s.Key.Opened == nil {
				s.Key.Opened = ex
			}
		}
	}
	return ex, err
}

// SendRun sends n requests of the key one after another as one run.
func (s *World) SendRun(n int) ([]*httpclient.Exchange, error) {
	run := make([]*httpclient.Exchange, 0, n)
	for range n {
		ex, err := s.SendKeyed()
		if ex != nil {
			run = append(run, ex)
		}
		if err != nil {
			s.Key.Runs = append(s.Key.Runs, run)
			return run, err
		}
	}
	s.Key.Runs = append(s.Key.Runs, run)
	return run, nil
}

// NAllowed sends N requests of a fresh key: each must be allowed (the
// set-up of the scenario's check).
func (s *World) NAllowed() error {
	run, err := s.SendRun(s.Limit())
	if err != nil {
		return err
	}
	return s.eachAllowed(run)
}

// NAllowedAtOnce is NAllowed with the N released together: they come back
// within about one request's time even from a slow target.
func (s *World) NAllowedAtOnce() error {
	run, err := s.SendAtOnce(s.Limit())
	if err != nil {
		return err
	}
	return s.eachAllowed(run)
}

// eachAllowed: every request of run was allowed, or the scenario's set-up
// failed.
func (s *World) eachAllowed(run []*httpclient.Exchange) error {
	for i, ex := range run {
		if ex.Status/100 != 2 {
			v := scenario.Violate(s.Refs(), "the first N requests of a fresh key", "2xx for each",
				fmt.Sprintf("request %d of %d got HTTP %d", i+1, len(run), ex.Status), ex)
			v.Precondition = true
			return v
		}
	}
	return nil
}

// burstWithinSecond sends N+1 requests of the key one after another; the
// scenario assumes they went out within one second.
func (s *World) burstWithinSecond() error {
	run, err := s.SendRun(s.Limit() + 1)
	if err != nil {
		return err
	}
	s.Assume("N+1 requests within one second", func() string {
		if d := run[len(run)-1].Sent.Sub(run[0].Sent); d >= time.Second {
			return fmt.Sprintf("the %d requests took %s to send", len(run), d.Round(time.Millisecond))
		}
		return ""
	})
	s.Batch = scenario.Batch{Exchanges: run, Sent: len(run)}
	return nil
}

// concurrentKeyed releases N+k requests of the key at once.
func (s *World) concurrentKeyed(k int) error { return s.ConcurrentN(s.Limit() + k) }

// ConcurrentN releases n requests of the key at once: one run of the key,
// and the last batch.
func (s *World) ConcurrentN(n int) error { return s.ConcurrentNWith(s.Key.Client, n) }

// ConcurrentNWith is concurrentN sent with c (the key's client, or one
// that spreads the requests over the instances: MI-1).
func (s *World) ConcurrentNWith(c scenario.Sender, n int) error {
	out, err := s.fireKeyed(c, s.KeyedN(s.Key.Value, n))
	s.Key.Runs = append(s.Key.Runs, out)
	s.Batch = scenario.Batch{Exchanges: out, Sent: len(out)}
	return err
}

// nextRefused sends one more request of the key; it must be a 429. A 200
// is only a violation when the key's last run and this request fell in
// one window: less than W − 1 s from the run's first send to this
// response, and (fixed windows) before the window's earliest end.
func (s *World) nextRefused() error {
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	s.AssumeRunInOneWindow(ex)
	if !ex.Refused() {
		return scenario.Violate(s.Refs(), "a key that spent N", "429", fmt.Sprintf("HTTP %d", ex.Status), ex)
	}
	return nil
}

// AssumeRunInOneWindow: a 200 for ex, the request after the key's last run
// of N, is a violation only when the run and ex lay in one window (less
// than W − 1 s from the run's first send to ex's receive, and, fixed-window,
// before the window's end); otherwise the time assumption broke. A 429
// rests on no timing.
func (s *World) AssumeRunInOneWindow(ex *httpclient.Exchange) {
	if len(s.Key.Runs) == 0 || len(s.Key.Runs[len(s.Key.Runs)-1]) == 0 {
		return
	}
	first, end := s.Key.Runs[len(s.Key.Runs)-1][0], s.KeyWindowEarliestEnd()
	if a := s.Env().Config.WindowAlign; end.IsZero() && (a == profile.AlignEpoch || a == "") {
		// no window recorded for the key: the epoch window its run began in
		end = s.EpochStart(first.Sent).Add(s.Window())
	}
	s.Assume("the key's requests within one window", func() string {
		if ex.Refused() {
			return "" // refused: the verdict rests on no timing
		}
		if span := ex.Received.Sub(first.Sent); span >= s.Window()-time.Second {
			return fmt.Sprintf("%d requests took %s, not less than W − 1 s", s.Limit()+1, span.Round(time.Millisecond))
		}
		if s.WholeWindows() && !end.IsZero() && !ex.Received.Before(end) {
			return "the requests ran past the window's end"
		}
		return s.acrossGrid(first.Sent, ex.Received)
	})
}

// acrossGrid says why from and to lie in two windows of the design's grid
// (GridStart), or "".
func (s *World) acrossGrid(from, to time.Time) string {
	if s.GridStart == nil || s.GridStart(from).Equal(s.GridStart(to)) {
		return ""
	}
	return fmt.Sprintf("the requests ran from %s to %s, across a boundary of the key's grid at %s",
		from.Format("15:04:05.000"), to.Format("15:04:05.000"), s.GridStart(to).Format("15:04:05.000"))
}

// secondsPass waits n seconds of the harness's clock.
func (s *World) secondsPass(n int) error {
	return s.WaitUntil(s.Now().Add(time.Duration(n) * time.Second))
}

// ExactlyN checks the last batch: exactly N allowed, the rest 429. More
// than N rests on the batch lying in one window, fewer (fixed windows) on
// the server having ended the window before it (ended.go). An undecided
// answer (scenario.Undecided) leaves only more than N a verdict.
func (s *World) ExactlyN() error {
	allowed, other := 0, []*httpclient.Exchange(nil)
	decided, undecided := scenario.Decided(s.Batch.Exchanges)
	for _, ex := range decided {
		switch {
		case ex.Status/100 == 2:
			allowed++
		case !ex.Refused():
			other = append(other, ex)
		}
	}
	if len(other) > 0 {
		return scenario.Violate(s.Refs(), "each request is allowed or refused", "2xx or 429", fmt.Sprintf("HTTP %d", other[0].Status), other[0])
	}
	if len(undecided) > 0 && allowed <= s.Limit() {
		s.AssumeDecided(s.Batch.Sent, undecided)
		return nil
	}
	if allowed > s.Limit() {
		s.AssumeBatchInOneWindow(s.Batch.Exchanges)
	}
	if allowed < s.Limit() {
		s.assumeWindowEnded(s.Batch.Exchanges)
	}
	if allowed != s.Limit() {
		return scenario.Violate(s.Refs(), fmt.Sprintf("%d requests of one key within one window", s.Batch.Sent),
			fmt.Sprintf("exactly %d allowed", s.Limit()), fmt.Sprintf("%d allowed", allowed), s.Batch.Exchanges...)
	}
	return nil
}

// AssumeBatchInOneWindow: more than N allowed in a batch of one key is a
// violation only when the batch lay in one window whatever the decision
// times in its exchanges: less than W − 1 s from its first send to its last
// receipt (W − 1 s: a server keeping whole seconds) and, fixed windows, no
// Window end inside it (epoch: whole-second clocks move no boundary of
// whole-second windows; first-request: the earliest end of the window the
// key's first allowed request opened). A slow machine that stretches a
// sequential batch across a window's end breaks the assumption; the
// verdict is then no verdict.
func (s *World) AssumeBatchInOneWindow(exs []*httpclient.Exchange) {
	if len(exs) == 0 {
		return
	}
	first, last := scenario.Span(exs)
	end := s.KeyWindowEarliestEnd()
	if s.Epoch() {
		end = s.EpochStart(first).Add(s.Window())
	}
	s.Assume("the batch within one window", func() string {
		if span := last.Sub(first); span >= s.Window()-time.Second {
			return fmt.Sprintf("%d requests took %s, not less than W − 1 s", len(exs), span.Round(time.Millisecond))
		}
		if s.WholeWindows() && !end.IsZero() && !last.Before(end) {
			return fmt.Sprintf("the requests ran from %s to %s, past the window's end at %s",
				first.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), end.Format(time.RFC3339Nano))
		}
		return s.acrossGrid(first, last)
	})
}

// Events are the scenario's exchanges that got an allow or a 429, as the
// bound checks take them.
func (s *World) Events() []bound.Event {
	var out []bound.Event
	for i, ex := range s.Exchanges() {
		if ex.Err != nil || (ex.Status/100 != 2 && !ex.Refused()) || ex.Method == http.MethodHead {
			continue
		}
		out = append(out, bound.Event{ID: i, Key: s.KeyOf(ex), Send: ex.Sent.UnixNano(), Recv: ex.Received.UnixNano(), Allowed: ex.Status/100 == 2})
	}
	return out
}

// BoundViolation turns the first of a bound check's violations into a
// step's verdict.
func (s *World) BoundViolation(vs []bound.Violation) error {
	if len(vs) == 0 {
		return nil
	}
	all := s.Exchanges()
	var ev []*httpclient.Exchange
	for _, e := range vs[0].Events {
		ev = append(ev, all[e.ID])
	}
	return scenario.Violate(s.Refs(), vs[0].Bound, vs[0].Bound, vs[0].String(), ev...)
}

// LimitHeaders parses ex's rate-limit headers and checks Limit = N.
func (s *World) LimitHeaders(ex *httpclient.Exchange) (dialect.RateLimit, error) {
	rl, err := check.HeadersOf(ex, s.Refs())
	if err != nil {
		return rl, err
	}
	if rl.Limit != int64(s.Limit()) {
		return rl, scenario.Violate(s.Refs(), ex.Answer.FieldName(dialect.FieldLimit), fmt.Sprintf("%d", s.Limit()), fmt.Sprintf("%d", rl.Limit), ex)
	}
	return rl, nil
}
