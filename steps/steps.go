package steps

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/target"
)

// clockTolerance is the contract's clock tolerance.
const clockTolerance = 2 * time.Second

func (s *scenario) register(sc *godog.ScenarioContext) {
	// Given
	sc.Step(`^a fresh device bucket$`, s.freshBucket)
	sc.Step(`^a fresh device bucket with its first ride sent$`, s.freshBucketFirstSent)
	sc.Step(`^a fresh device bucket with (\d+) units? left$`, s.freshBucketWithLeft)
	sc.Step(`^the bucket is exhausted$`, func() error { return s.leaveUnits(0, false) })
	sc.Step(`^the address bucket has (\d+) units? left$`, s.addressBucketWithLeft)
	sc.Step(`^the window of the bucket has passed$`, s.windowPassed)
	sc.Step(`^the flag-off instance$`, s.flagOff)
	// When
	sc.Step(`^I send a ride to the bucket$`, s.sendRide)
	sc.Step(`^I send a ride without device_bucket$`, s.sendNoBucket)
	sc.Step(`^I send a ride without device_bucket from another client address$`, s.sendNoBucketOtherAddr)
	sc.Step(`^I send a ride without device_bucket and a spoofed X-Forwarded-For$`, s.sendSpoofedXFF)
	sc.Step(`^I send a ride with an invalid device_bucket "([^"]*)"$`, s.sendInvalidBucket)
	sc.Step(`^I replay the last request$`, s.replay)
	sc.Step(`^I send the same Idempotency-Key with a different body$`, s.sameKeyOtherBody)
	sc.Step(`^I wait (\d+) seconds inside the window$`, s.waitInsideWindow)
	sc.Step(`^(\d+) rounds of (\d+) identical rides, one Idempotency-Key per round, are sent concurrently$`, s.concurrentIdentical)
	sc.Step(`^(\d+) different rides are sent to the bucket concurrently$`, s.concurrentDifferent)
	sc.Step(`^rides race for the bucket as its window passes$`, s.raceBoundary)
	sc.Step(`^I send more rides than the limit to the bucket$`, s.sendPastLimit)
	sc.Step(`^I send a bad body: (.+)$`, s.sendBadBody)
	// Then
	sc.Step(`^the response status is (\d+)$`, s.statusIs)
	sc.Step(`^Remaining is the limit minus (\d+)$`, func(n int) error { return s.remainingIs(s.limit()-n, fmt.Sprintf("limit - %d", n)) })
	sc.Step(`^Remaining is (\d+)$`, func(n int) error { return s.remainingIs(n, "") })
	sc.Step(`^Remaining is the sentinel$`, func() error { return s.remainingIs(s.env.Config.Sentinel, "RL_SENTINEL") })
	sc.Step(`^Limit is the configured limit$`, s.limitIsConfigured)
	sc.Step(`^Reset is about now plus the window$`, s.resetAboutNowPlusWindow)
	sc.Step(`^Reset is the same as on the first response$`, s.resetSameAsFirst)
	sc.Step(`^the body is a JSON error "([^"]*)"$`, s.bodyIsJSONError)
	sc.Step(`^Retry-After is at most Reset minus now plus 1$`, s.retryAfter)
	sc.Step(`^the response carries valid rate-limit headers$`, func() error { return s.validHeaders(s.last) })
	sc.Step(`^every response so far carried valid rate-limit headers$`, s.allValidHeaders)
	sc.Step(`^the replay has the first response's status and body$`, s.replayMatches)
	sc.Step(`^the next fresh ride's Remaining is (\d+) below the first response's$`, s.nextBelowFirst)
	sc.Step(`^the next fresh ride's Remaining is the limit minus (\d+)$`, s.nextLimitMinus)
	sc.Step(`^the response is not the cached first response$`, s.notCached)
	sc.Step(`^none of the concurrent rides got a 5xx$`, s.no5xx)
	sc.Step(`^exactly min\(N, Q\) got 200 with Remaining Q-1 down to Q-min\(N, Q\) each once and the rest 429$`, s.exactlyMinNQ)
	sc.Step(`^the racing rides got at most the limit of 200s with distinct Remaining values$`, s.boundaryOnce)
	sc.Step(`^every response was 200 with the three headers and Remaining equal to the sentinel$`, s.allSentinel)
	sc.Step(`^the response is a 4xx with a JSON error body$`, s.is4xxJSON)
	sc.Step(`^the next ride without device_bucket gets Remaining at most the limit minus (\d+)$`, s.nextNoBucketAtMost)
}

// ---- requests ----

func (s *scenario) render(f target.BucketField) ([]byte, error) {
	b, err := s.env.Body.Render(f)
	if err != nil {
		return nil, fmt.Errorf("render body: %w", err)
	}
	return b, nil
}

// send sends r with c, records it, and fails when no response came back.
func (s *scenario) send(c Sender, r target.Request) (*target.Exchange, error) {
	ex := c.Do(s.ctx, r)
	s.record(ex)
	if ex.Err != nil {
		return ex, &Violation{Clause: "FR-7", Check: "the target answers every request",
			Expected: "an HTTP response", Actual: ex.Err.Error(), Evidence: []*target.Exchange{ex}}
	}
	return ex, nil
}

// one sends a single request as the scenario's "last" request.
func (s *scenario) one(c Sender, f target.BucketField) (*target.Exchange, error) {
	if s.first == nil {
		if err := s.alignWindowStart(); err != nil {
			return nil, err
		}
	}
	body, err := s.render(f)
	if err != nil {
		return nil, err
	}
	r := target.Request{Body: body, IdempotencyKey: target.NewUUID()}
	ex, err := s.send(c, r)
	s.last, s.lastReq, s.keyed = ex, r, ex
	if s.first == nil {
		s.first = ex
	}
	if err == nil && ex.Status < 500 {
		if _, perr := ex.RateLimit(); perr == nil {
			s.spent = ex
		}
	}
	return ex, err
}

func (s *scenario) freshBucket() error {
	s.bucket = target.NewDeviceBucket()
	s.first = nil
	return nil
}

func (s *scenario) sendRide() error {
	if s.bucket == "" {
		s.bucket = target.NewDeviceBucket()
	}
	_, err := s.one(s.theClient(), target.Bucket(s.bucket))
	return err
}

func (s *scenario) sendNoBucket() error {
	_, err := s.one(s.theClient(), target.Omit())
	return err
}

func (s *scenario) sendNoBucketOtherAddr() error {
	other := s.newClient()
	_, err := s.one(other, target.Omit())
	return err
}

func (s *scenario) sendSpoofedXFF() error {
	if s.env.Config.ClientIPs == target.ClientIPsXFF {
		return skip("CLIENT_IPS=xff makes the harness a trusted proxy, so an untrusted X-Forwarded-For cannot be sent")
	}
	body, err := s.render(target.Omit())
	if err != nil {
		return err
	}
	spoof := target.NewClientAddr(target.ClientIPsXFF)
	r := target.Request{Body: body, IdempotencyKey: target.NewUUID(), Header: http.Header{"X-Forwarded-For": {spoof.String()}}}
	ex, err := s.send(s.theClient(), r)
	s.last, s.lastReq, s.keyed = ex, r, ex
	if s.first == nil {
		s.first = ex
	}
	return err
}

// invalidBucket maps a feature's description of an invalid device_bucket to
// the value sent.
func invalidBucket(kind string) (target.BucketField, error) {
	hex := target.NewDeviceBucket()
	switch kind {
	case "not-a-hash":
		return target.Bucket("not-a-hash"), nil
	case "63 hex":
		return target.Bucket(hex[:63]), nil
	case "65 hex":
		return target.Bucket(hex + "a"), nil
	case "64 non-hex":
		return target.Bucket(strings.Repeat("z", 64)), nil
	case "empty":
		return target.Bucket(""), nil
	case "number":
		return target.BucketValue(12345), nil
	}
	return target.BucketField{}, fmt.Errorf("unknown invalid device_bucket kind %q", kind)
}

func (s *scenario) sendInvalidBucket(kind string) error {
	f, err := invalidBucket(kind)
	if err != nil {
		return err
	}
	_, err = s.one(s.theClient(), f)
	return err
}

func (s *scenario) replay() error {
	if s.last == nil {
		return errors.New("no request to replay")
	}
	s.keyed = s.last
	ex, err := s.send(s.theClient(), s.lastReq)
	s.last = ex
	return err
}

func (s *scenario) sameKeyOtherBody() error {
	if s.last == nil {
		return errors.New("no earlier request")
	}
	body, err := s.render(target.Bucket(s.bucket))
	if err != nil {
		return err
	}
	if bytes.Equal(body, s.lastReq.Body) {
		return skip("BODY_TEMPLATE renders the same body every time (use {{uuid}} or {{now}}), so no different body can be sent")
	}
	s.keyed = s.last
	r := target.Request{Body: body, IdempotencyKey: s.lastReq.IdempotencyKey}
	ex, err := s.send(s.theClient(), r)
	s.last = ex
	return err
}

// ---- Given: quota state ----

func (s *scenario) freshBucketFirstSent() error {
	s.bucket = target.NewDeviceBucket()
	s.first = nil
	ex, err := s.one(s.theClient(), target.Bucket(s.bucket))
	if err != nil {
		return err
	}
	return s.expectFirst(ex, s.limit()-1)
}

func (s *scenario) freshBucketWithLeft(n int) error {
	if err := s.freshBucketFirstSent(); err != nil {
		return err
	}
	return s.leaveUnits(n, false)
}

func (s *scenario) addressBucketWithLeft(n int) error {
	s.first = nil
	ex, err := s.one(s.theClient(), target.Omit())
	if err != nil {
		return err
	}
	if err := s.expectFirst(ex, s.limit()-1); err != nil {
		return err
	}
	return s.leaveUnits(n, true)
}

// expectFirst checks the first response of a fresh bucket (AC1), which
// every quota set-up relies on.
func (s *scenario) expectFirst(ex *target.Exchange, want int) error {
	rl, err := ex.RateLimit()
	if ex.Status != http.StatusOK || err != nil || int(rl.Remaining) != want {
		return &Violation{Clause: "AC1", Check: "first request on a fresh bucket",
			Expected: fmt.Sprintf("200 with X-RateLimit-Remaining %d", want),
			Actual:   describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

// leaveUnits brings the current bucket (or the client address's bucket) to
// n units left: through TARGET_DB when given, otherwise by spending units.
func (s *scenario) leaveUnits(n int, address bool) error {
	if n >= s.limit() {
		return fmt.Errorf("cannot leave %d units with RL_LIMIT=%d", n, s.limit())
	}
	if s.env.Seeder != nil {
		id := s.bucket
		if address {
			id = addrKey(s.theClient().Addr())
		}
		if err := s.env.Seeder.SetRemaining(s.ctx, id, n); err != nil {
			return err
		}
		s.seeded, s.left = true, n
		return nil
	}
	if s.spent == nil {
		ex, err := s.one(s.theClient(), s.field(address))
		if err != nil {
			return err
		}
		if err := s.validHeaders(ex); err != nil {
			return err
		}
	}
	rl, err := s.spent.RateLimit()
	if err != nil {
		return err
	}
	for left := int(rl.Remaining); left > n; left-- {
		ex, err := s.one(s.theClient(), s.field(address))
		if err != nil {
			return err
		}
		got, perr := ex.RateLimit()
		if ex.Status != http.StatusOK || perr != nil || int(got.Remaining) != left-1 {
			return &Violation{Clause: "AC1 / FR-4", Check: "each request spends exactly one unit",
				Expected: fmt.Sprintf("200 with X-RateLimit-Remaining %d", left-1),
				Actual:   describe(ex), Evidence: []*target.Exchange{ex}}
		}
	}
	return nil
}

func (s *scenario) field(address bool) target.BucketField {
	if address {
		return target.Omit()
	}
	return target.Bucket(s.bucket)
}

// windowPassed moves the bucket's window into the past (TARGET_DB) or waits
// for it to pass (up to MAX_WAIT).
func (s *scenario) windowPassed() error {
	if s.env.Seeder != nil {
		return s.env.Seeder.ExpireWindow(s.ctx, s.bucket)
	}
	until, err := s.windowEnd()
	if err != nil {
		return err
	}
	return s.waitUntil(until)
}

// windowEnd is when, by the last Reset seen, the bucket's window has passed
// (with a second for the server's rounding); a SKIP when that is beyond
// MAX_WAIT.
func (s *scenario) windowEnd() (time.Time, error) {
	if s.spent == nil {
		return time.Time{}, errors.New("no response with rate-limit headers on this bucket yet")
	}
	rl, err := s.spent.RateLimit()
	if err != nil {
		return time.Time{}, err
	}
	until := time.Unix(rl.Reset, 0).Add(time.Second)
	if wait := until.Sub(s.env.now()); wait > s.env.Config.MaxWait {
		return time.Time{}, skip("needs the window to pass (%s more), longer than MAX_WAIT=%s, and TARGET_DB is not set",
			wait.Round(time.Second), s.env.Config.MaxWait)
	}
	return until, nil
}

func (s *scenario) flagOff() error {
	if s.env.DisabledURL == "" {
		return skip("TARGET_URL_DISABLED is not set: AC8 needs a second instance started with BMTC_RATE_LIMIT_ENABLED=false")
	}
	s.base, s.enabled = s.env.DisabledURL, false
	s.client = nil
	return nil
}

// shortWindow is the window length below which the first request of a
// bucket is sent at the start of a wall-clock second (see alignWindowStart).
const shortWindow = 10 * time.Second

// alignWindowStart delays a bucket's first request, when the window is short
// and windows are waited out rather than seeded, to just after a whole
// second. A server that stores Reset as whole unix seconds may round the
// window's end down by up to a second; starting on the second keeps a 3 s
// window at nearly 3 s, so two samples 2 s apart still fit inside it.
func (s *scenario) alignWindowStart() error {
	if s.env.Seeder != nil || s.env.Config.Window >= shortWindow {
		return nil
	}
	now := s.env.now()
	return s.waitUntil(now.Truncate(time.Second).Add(time.Second + 5*time.Millisecond))
}

// waitInsideWindow waits until secs have passed since the bucket's first
// request — the first sample of a "does not move" check — provided the
// window (started by that request, and ending no later than its Reset)
// still has room for the second sample.
func (s *scenario) waitInsideWindow(secs int) error {
	if s.first == nil {
		return errors.New("no request on the bucket yet")
	}
	d := time.Duration(secs) * time.Second
	end := s.first.Sent.Add(s.env.Config.Window)
	if rl, err := s.first.RateLimit(); err == nil && s.enabled {
		if reset := time.Unix(rl.Reset, 0); reset.Before(end) {
			end = reset
		}
	}
	at := s.first.Sent.Add(d)
	if s.env.now().After(at) {
		at = s.env.now()
	}
	if at.Add(500 * time.Millisecond).After(end) {
		return skip("RL_WINDOW=%s leaves no room for two samples %s apart inside one window (first request at %s, window ends by %s)",
			s.env.Config.Window, d, s.first.Sent.Format(time.RFC3339Nano), end.Format(time.RFC3339))
	}
	return s.waitUntil(at)
}

// ---- concurrency ----

// fire sends reqs concurrently: connections are pre-dialled, every goroutine
// is ready, then one channel close releases them all at release (zero: at
// once).
func (s *scenario) fire(c Sender, reqs []target.Request, release time.Time) []*target.Exchange {
	s.predial(c, len(reqs))
	out := make([]*target.Exchange, len(reqs))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i, r := range reqs {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			select {
			case <-start:
			case <-s.ctx.Done():
			}
			out[i] = c.Do(s.ctx, r)
		}()
	}
	ready.Wait()
	if !release.IsZero() {
		_ = s.waitUntil(release)
	}
	close(start)
	done.Wait()
	s.record(out...)
	s.batch = out
	return out
}

// predial opens n connections by sending n concurrent HEAD requests, so
// that the released requests do not queue behind dials.
func (s *scenario) predial(c Sender, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Do(s.ctx, target.Request{Method: http.MethodHead, ContentType: "-"})
		}()
	}
	wg.Wait()
}

// concurrentIdentical sends rounds bursts of n identical requests (one key
// and body per round): a lost race between the replay lookup and the spend
// shows only sometimes, so the burst is repeated.
func (s *scenario) concurrentIdentical(rounds, n int) error {
	var all []*target.Exchange
	for range rounds {
		body, err := s.render(target.Bucket(s.bucket))
		if err != nil {
			return err
		}
		r := target.Request{Body: body, IdempotencyKey: target.NewUUID()}
		reqs := make([]target.Request, n)
		for i := range reqs {
			reqs[i] = r
		}
		out := s.fire(s.theClient(), reqs, time.Time{})
		all = append(all, out...)
		if err := s.noTransportErrors(out); err != nil {
			return err
		}
	}
	s.batch = all
	return nil
}

func (s *scenario) concurrentDifferent(n int) error {
	q := s.limit()
	if s.spent != nil {
		if rl, err := s.spent.RateLimit(); err == nil {
			q = int(rl.Remaining)
		}
	}
	if s.seeded {
		q = s.left
	}
	reqs := make([]target.Request, n)
	for i := range reqs {
		body, err := s.render(target.Bucket(s.bucket))
		if err != nil {
			return err
		}
		reqs[i] = target.Request{Body: body, IdempotencyKey: target.NewUUID()}
	}
	s.batchN, s.batchQ = n, q
	out := s.fire(s.theClient(), reqs, time.Time{})
	return s.noTransportErrors(out)
}

// boundaryRounds is how many times the boundary race is run when TARGET_DB
// can expire the window on demand: a lost race shows only sometimes.
const boundaryRounds = 25

func (s *scenario) raceBoundary() error {
	n := min(s.limit()+3, 64)
	rounds := 1
	if s.env.Seeder != nil {
		rounds = boundaryRounds
	}
	s.rounds = nil
	for round := range rounds {
		var release time.Time
		if s.env.Seeder != nil {
			if round > 0 {
				if err := s.env.Seeder.SetRemaining(s.ctx, s.bucket, 0); err != nil {
					return err
				}
			}
			if err := s.env.Seeder.ExpireWindow(s.ctx, s.bucket); err != nil {
				return err
			}
		} else {
			until, err := s.windowEnd()
			if err != nil {
				return err
			}
			release = until.Add(-time.Second) // the Reset instant itself
		}
		reqs := make([]target.Request, n)
		for i := range reqs {
			body, err := s.render(target.Bucket(s.bucket))
			if err != nil {
				return err
			}
			reqs[i] = target.Request{Body: body, IdempotencyKey: target.NewUUID()}
		}
		out := s.fire(s.theClient(), reqs, release)
		if err := s.noTransportErrors(out); err != nil {
			return err
		}
		s.rounds = append(s.rounds, out)
	}
	return nil
}

func (s *scenario) noTransportErrors(out []*target.Exchange) error {
	for _, ex := range out {
		if ex.Err != nil {
			return &Violation{Clause: "FR-4", Check: "the target answers concurrent requests",
				Expected: "an HTTP response to each", Actual: ex.Err.Error(), Evidence: []*target.Exchange{ex}}
		}
	}
	return nil
}

func (s *scenario) sendPastLimit() error {
	if s.bucket == "" {
		s.bucket = target.NewDeviceBucket()
	}
	n := s.limit() + 1
	out := make([]*target.Exchange, 0, n)
	for range n {
		ex, err := s.one(s.theClient(), target.Bucket(s.bucket))
		out = append(out, ex)
		if err != nil {
			s.batch = out
			return err
		}
		if ex.Status != http.StatusOK {
			break // the Then step reports it
		}
	}
	s.batch = out
	return nil
}

// badBody maps a feature's description of bad input to the body sent.
func (s *scenario) badBody(kind string) ([]byte, error) {
	switch kind {
	case "malformed JSON":
		return []byte(`{"route_id":"335E","segments":[`), nil
	case "empty body":
		return nil, nil
	case "JSON array":
		return []byte(`[{"route_id":"335E"}]`), nil
	case "JSON string":
		return []byte(`"ride"`), nil
	case "JSON null":
		return []byte(`null`), nil
	case "oversized body":
		body, err := s.render(target.Omit())
		if err != nil {
			return nil, err
		}
		pad := bytes.Repeat([]byte("x"), 2<<20)
		return append(append(append(body[:len(body)-1:len(body)-1], `,"pad":"`...), pad...), `"}`...), nil
	}
	return nil, fmt.Errorf("unknown bad body kind %q", kind)
}

func (s *scenario) sendBadBody(kind string) error {
	body, err := s.badBody(kind)
	if err != nil {
		return err
	}
	r := target.Request{Body: body, IdempotencyKey: target.NewUUID()}
	ex := s.theClient().Do(s.ctx, r)
	s.record(ex)
	s.last, s.lastReq = ex, r
	if ex.Err != nil {
		return &Violation{Clause: "extended: bad input", Check: "bad input is answered",
			Expected: "a 4xx response with a JSON error", Actual: ex.Err.Error(), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

// ---- Then ----

func describe(ex *target.Exchange) string {
	if ex == nil {
		return "no request was sent"
	}
	return ex.Summary()
}

func (s *scenario) need() (*target.Exchange, error) {
	if s.last == nil {
		return nil, errors.New("no response to check")
	}
	return s.last, nil
}

func (s *scenario) statusIs(code int) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	if ex.Status != code {
		return &Violation{Clause: s.clauseFor(code), Check: "response status",
			Expected: fmt.Sprintf("HTTP %d", code), Actual: describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

func (s *scenario) clauseFor(code int) string {
	if code == http.StatusTooManyRequests {
		return "AC3 / FR-3"
	}
	if !s.enabled {
		return "AC8 / FR-8"
	}
	return "AC1"
}

func (s *scenario) headersOf(ex *target.Exchange, clause string) (target.RateLimit, error) {
	rl, err := ex.RateLimit()
	if err != nil {
		return rl, &Violation{Clause: clause, Check: "rate-limit headers",
			Expected: "X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset as non-negative integers",
			Actual:   err.Error() + " (" + describe(ex) + ")", Evidence: []*target.Exchange{ex}}
	}
	return rl, nil
}

func (s *scenario) remainingIs(want int, expr string) error {
	ex, rl, err := s.lastWithHeaders("FR-7")
	if err != nil {
		return err
	}
	if int(rl.Remaining) != want {
		exp := fmt.Sprintf("X-RateLimit-Remaining %d", want)
		if expr != "" {
			exp += " (" + expr + ")"
		}
		return &Violation{Clause: s.clauseForRemaining(), Check: "X-RateLimit-Remaining",
			Expected: exp, Actual: describe(ex), Evidence: s.exchanges()}
	}
	return nil
}

func (s *scenario) clauseForRemaining() string {
	if !s.enabled {
		return "AC8 / FR-8"
	}
	return "FR-7"
}

// lastWithHeaders is the last response and its parsed rate-limit headers;
// missing or malformed headers are a violation of clause.
func (s *scenario) lastWithHeaders(clause string) (*target.Exchange, target.RateLimit, error) {
	ex, err := s.need()
	if err != nil {
		return nil, target.RateLimit{}, err
	}
	rl, err := s.headersOf(ex, clause)
	return ex, rl, err
}

func (s *scenario) limitIsConfigured() error {
	ex, rl, err := s.lastWithHeaders("FR-7")
	if err != nil {
		return err
	}
	if int(rl.Limit) != s.limit() {
		return &Violation{Clause: "FR-7", Check: "X-RateLimit-Limit",
			Expected: fmt.Sprintf("%d (RL_LIMIT)", s.limit()), Actual: describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

func (s *scenario) resetAboutNowPlusWindow() error {
	ex, rl, err := s.lastWithHeaders("FR-7")
	if err != nil {
		return err
	}
	lo := ex.Sent.Add(s.env.Config.Window - clockTolerance).Unix()
	hi := ex.Received.Add(s.env.Config.Window + clockTolerance).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return &Violation{Clause: "AC4 / FR-5", Check: "X-RateLimit-Reset of a new window",
			Expected: fmt.Sprintf("about now + %s: unix seconds in [%d, %d]", s.env.Config.Window, lo, hi),
			Actual:   describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

func (s *scenario) resetSameAsFirst() error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	if s.first == nil {
		return errors.New("no first response")
	}
	a, err := s.headersOf(s.first, "FR-7")
	if err != nil {
		return err
	}
	b, err := s.headersOf(ex, "FR-7")
	if err != nil {
		return err
	}
	if d := b.Reset - a.Reset; d < -1 || d > 1 {
		return &Violation{Clause: "FR-5 / AC3", Check: "X-RateLimit-Reset does not move within a window",
			Expected: fmt.Sprintf("%d ±1 (the first response's Reset, %s earlier)", a.Reset, ex.Sent.Sub(s.first.Sent).Round(100*time.Millisecond)),
			Actual:   describe(ex), Evidence: []*target.Exchange{s.first, ex}}
	}
	return nil
}

func (s *scenario) bodyIsJSONError(want string) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	var m map[string]any
	if json.Unmarshal(ex.RespBody, &m) != nil || m["error"] != want {
		return &Violation{Clause: "AC3 / FR-3", Check: "429 body",
			Expected: fmt.Sprintf(`a JSON object with "error": %q`, want), Actual: describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

func (s *scenario) retryAfter() error {
	ex, rl, err := s.lastWithHeaders("FR-7")
	if err != nil {
		return err
	}
	max := rl.Reset - ex.Sent.Unix() + 1
	if rl.RetryAfter < 0 || rl.RetryAfter > max {
		return &Violation{Clause: "AC3 / FR-3", Check: "Retry-After on a 429",
			Expected: fmt.Sprintf("Retry-After in seconds, at most Reset - now + 1 = %d", max),
			Actual:   describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

// validHeaders checks clause 1 of the reading on one response.
func (s *scenario) validHeaders(ex *target.Exchange) error {
	if ex == nil {
		return errors.New("no response to check")
	}
	rl, err := s.headersOf(ex, "FR-7")
	if err != nil {
		return err
	}
	if !s.enabled {
		return nil
	}
	bad := func(exp string) error {
		return &Violation{Clause: "FR-7", Check: "rate-limit headers are valid", Expected: exp,
			Actual: describe(ex), Evidence: []*target.Exchange{ex}}
	}
	if int(rl.Limit) != s.limit() {
		return bad(fmt.Sprintf("X-RateLimit-Limit %d (RL_LIMIT)", s.limit()))
	}
	if rl.Remaining > rl.Limit {
		return bad("0 <= X-RateLimit-Remaining <= X-RateLimit-Limit")
	}
	lo := ex.Sent.Add(-clockTolerance).Unix()
	hi := ex.Received.Add(s.env.Config.Window + clockTolerance).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return bad(fmt.Sprintf("X-RateLimit-Reset in [now, now + window] = [%d, %d] (±2 s)", lo, hi))
	}
	return nil
}

func (s *scenario) allValidHeaders() error {
	exs := s.exchanges()
	if len(exs) == 0 {
		return errors.New("no responses to check")
	}
	for _, ex := range exs {
		if ex.Method != http.MethodPost {
			continue
		}
		if err := s.validHeaders(ex); err != nil {
			return err
		}
	}
	return nil
}

func (s *scenario) replayMatches() error {
	orig, replay := s.keyed, s.last
	if orig == nil || replay == nil || orig == replay {
		return errors.New("no replay to compare")
	}
	if orig.Status != replay.Status || !bytes.Equal(orig.RespBody, replay.RespBody) {
		return &Violation{Clause: "AC6 / FR-6", Check: "an idempotent replay returns the cached response",
			Expected: fmt.Sprintf("the first response again: HTTP %d %s", orig.Status, truncate(orig.RespBody)),
			Actual:   describe(replay), Evidence: []*target.Exchange{orig, replay}}
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// nextFresh sends a fresh ride (new key) on the bucket and returns its
// Remaining.
func (s *scenario) nextFresh(clause string) (*target.Exchange, int64, error) {
	body, err := s.render(target.Bucket(s.bucket))
	if err != nil {
		return nil, 0, err
	}
	ex, err := s.send(s.theClient(), target.Request{Body: body, IdempotencyKey: target.NewUUID()})
	if err != nil {
		return ex, 0, err
	}
	rl, err := s.headersOf(ex, clause)
	return ex, rl.Remaining, err
}

func (s *scenario) nextBelowFirst(n int) error {
	if s.keyed == nil {
		return errors.New("no first response")
	}
	first, err := s.headersOf(s.keyed, "FR-7")
	if err != nil {
		return err
	}
	ex, got, err := s.nextFresh("FR-7")
	if err != nil {
		return err
	}
	if want := first.Remaining - int64(n); got != want {
		return &Violation{Clause: "AC6 / FR-6", Check: "a replay spends nothing",
			Expected: fmt.Sprintf("the next fresh request's Remaining %d (first response's %d minus %d)", want, first.Remaining, n),
			Actual:   describe(ex), Evidence: s.exchanges()}
	}
	return nil
}

func (s *scenario) nextLimitMinus(n int) error {
	ex, got, err := s.nextFresh("FR-7")
	if err != nil {
		return err
	}
	if want := int64(s.limit() - n); got != want {
		return &Violation{Clause: "AC6 / FR-6", Check: "concurrent identical requests spend one unit",
			Expected: fmt.Sprintf("the next fresh request's Remaining %d (limit - %d)", want, n),
			Actual:   describe(ex), Evidence: append(s.batch, ex)}
	}
	return nil
}

func (s *scenario) notCached() error {
	orig, ex := s.keyed, s.last
	if orig == nil || ex == nil || orig == ex {
		return errors.New("no second response")
	}
	if ex.Status == http.StatusConflict || ex.Status == http.StatusUnprocessableEntity {
		return nil
	}
	o, err := s.headersOf(orig, "FR-7")
	if err != nil {
		return err
	}
	if ex.Status == http.StatusOK {
		if rl, err := ex.RateLimit(); err == nil && rl.Remaining == o.Remaining-1 {
			return nil // processed as a new request
		}
	}
	return &Violation{Clause: "AC6 / FR-6", Check: "the same Idempotency-Key with a different body",
		Expected: fmt.Sprintf("422 or 409, or processing as a new request (200 with Remaining %d); never the cached response", o.Remaining-1),
		Actual:   describe(ex), Evidence: []*target.Exchange{orig, ex}}
}

func (s *scenario) no5xx() error {
	for _, ex := range s.batch {
		if ex.Status >= 500 {
			return &Violation{Clause: "AC6 / FR-6", Check: "concurrent identical requests",
				Expected: "no 5xx", Actual: describe(ex), Evidence: []*target.Exchange{ex}}
		}
	}
	return nil
}

func (s *scenario) exactlyMinNQ() error {
	n, q := s.batchN, s.batchQ
	k := min(n, q)
	var got []int64
	others := 0
	var bad *target.Exchange
	for _, ex := range s.batch {
		switch ex.Status {
		case http.StatusOK:
			rl, err := s.headersOf(ex, "FR-7")
			if err != nil {
				return err
			}
			got = append(got, rl.Remaining)
		case http.StatusTooManyRequests:
			others++
		default:
			bad = ex
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i] > got[j] })
	want := make([]int64, k)
	for i := range want {
		want[i] = int64(q - 1 - i)
	}
	if bad != nil || len(got) != k || others != n-k || fmt.Sprint(got) != fmt.Sprint(want) {
		actual := fmt.Sprintf("%d× 200 with Remaining %v, %d× 429", len(got), got, others)
		if bad != nil {
			actual += "; also " + describe(bad)
		}
		return &Violation{Clause: "AC7 / FR-4", Check: fmt.Sprintf("%d concurrent requests on a bucket with %d units left", n, q),
			Expected: fmt.Sprintf("exactly %d× 200 with Remaining %v (each once) and %d× 429", k, want, n-k),
			Actual:   actual, Evidence: s.batch}
	}
	return nil
}

func (s *scenario) boundaryOnce() error {
	if len(s.rounds) == 0 {
		return errors.New("no boundary race was run")
	}
	for i, batch := range s.rounds {
		if err := s.resetOnce(batch, i+1, len(s.rounds)); err != nil {
			return err
		}
	}
	return nil
}

func (s *scenario) resetOnce(batch []*target.Exchange, round, rounds int) error {
	var got []int64
	seen := map[int64]bool{}
	dup := false
	for _, ex := range batch {
		if ex.Status != http.StatusOK {
			continue
		}
		rl, err := s.headersOf(ex, "FR-7")
		if err != nil {
			return err
		}
		dup = dup || seen[rl.Remaining]
		seen[rl.Remaining] = true
		got = append(got, rl.Remaining)
	}
	sort.Slice(got, func(i, j int) bool { return got[i] > got[j] })
	consecutive := true
	for i, r := range got {
		consecutive = consecutive && r == int64(s.limit()-1-i)
	}
	if len(got) > s.limit() || dup || !consecutive {
		return &Violation{Clause: "AC4 / FR-5", Check: fmt.Sprintf("%d requests racing at the window boundary (round %d of %d)", len(batch), round, rounds),
			Expected: fmt.Sprintf("the bucket resets once: at most %d× 200, Remaining %d, %d, … each once", s.limit(), s.limit()-1, s.limit()-2),
			Actual:   fmt.Sprintf("%d× 200 with Remaining %v", len(got), got), Evidence: batch}
	}
	return nil
}

func (s *scenario) allSentinel() error {
	if len(s.batch) == 0 {
		return errors.New("no responses")
	}
	for i, ex := range s.batch {
		rl, err := ex.RateLimit()
		if ex.Status != http.StatusOK || err != nil || int(rl.Remaining) != s.env.Config.Sentinel {
			return &Violation{Clause: "AC8 / FR-8", Check: fmt.Sprintf("request %d of %d on one bucket with the flag off", i+1, len(s.batch)),
				Expected: fmt.Sprintf("200 with the three headers and X-RateLimit-Remaining %d (RL_SENTINEL)", s.env.Config.Sentinel),
				Actual:   describe(ex), Evidence: []*target.Exchange{ex}}
		}
	}
	if len(s.batch) <= s.limit() {
		return fmt.Errorf("only %d requests were sent, not more than the limit %d", len(s.batch), s.limit())
	}
	return nil
}

func (s *scenario) is4xxJSON() error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	var m map[string]any
	if ex.Status < 400 || ex.Status > 499 || json.Unmarshal(ex.RespBody, &m) != nil || m == nil {
		return &Violation{Clause: "extended: bad input", Check: "bad input",
			Expected: "a 4xx with a JSON error body, never a 5xx", Actual: describe(ex), Evidence: []*target.Exchange{ex}}
	}
	return nil
}

func (s *scenario) nextNoBucketAtMost(n int) error {
	ex, err := s.one(s.theClient(), target.Omit())
	if err != nil {
		return err
	}
	rl, err := s.headersOf(ex, "FR-7")
	if err != nil {
		return err
	}
	if want := int64(s.limit() - n); ex.Status != http.StatusOK || rl.Remaining > want {
		return &Violation{Clause: "extended: bad input", Check: "bad input never adds or restores quota",
			Expected: fmt.Sprintf("200 with Remaining at most %d (limit - %d)", want, n), Actual: describe(ex), Evidence: s.exchanges()}
	}
	return nil
}

// addrKey is the bucket id of the address fallback.
func addrKey(a netip.Addr) string { return "ip:" + a.String() }
