package ops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/tokenbucket"
)

// registerMultiInstance registers the steps of several instances on one
// store (MI-1): requests of one bucket or key spread over every instance of
// scenario.Env.URLs, the profile's bounds checked over all of them together.
func (s *state) registerMultiInstance(sc scenario.Stepper) {
	sc.Step(`^the target runs on at least two instances$`, s.severalInstances)
	sc.Step(`^Q\+(\d+) different rides are sent to the bucket concurrently, round-robin over the instances$`, s.ridesOverInstances)
	sc.Step(`^the bucket is brought to at most (\d+) units? left through the first instance$`, s.bucketToThroughFirst)
	sc.Step(`^(N|B)\+(\d+) requests are sent with the key concurrently, round-robin over the instances$`, s.keyedOverInstances)
	sc.Step(`^a fresh device bucket with one ride sent through each instance$`, s.bucketThroughEach)
	sc.Step(`^the rest of the limit is spent through the first instance$`, func() error { return s.bucketToThroughFirst(0) })
	sc.Step(`^a ride to the bucket through each other instance is refused with 429$`, s.bucketRefusedElsewhere)
	sc.Step(`^one request with the key is sent through each instance$`, s.keyThroughEach)
	sc.Step(`^the rest of (?:N|B) is spent with the key through the first instance$`, s.keyRestThroughFirst)
	sc.Step(`^the next request with the key through each other instance is refused with 429$`, s.keyRefusedElsewhere)
	sc.Step(`^exactly (N|B) of the key's requests were allowed and the rest refused with 429$`, s.keyExactly)
}

// severalInstances starts a multi-instance scenario: at least two
// instances, and no verdict from a run in which one of them did not decide
// a request (scenario.Undecided: a 503 with Retry-After, its store busy —
// instances on one store contend for it, and each step builds on every
// request before it having spent).
func (s *state) severalInstances() error {
	if _, err := s.instances(); err != nil {
		return err
	}
	s.AssumeAllDecided()
	return nil
}

// instances are the enabled instances' base URLs; fewer than two skip the
// scenario, which then has nothing to check.
func (s *state) instances() ([]string, error) {
	urls := s.Env().URLs
	if len(urls) < 2 {
		return nil, scenario.Skip("multi-instance needs at least 2 instances on one store and this run has %d: give TARGET_URLS=a,b,… or REPLICAS=n (TARGET_IMAGE or the embedded reference)", len(urls))
	}
	return urls, nil
}

// instanceClients are one client per instance: first (the scenario's or
// the key's client, on scenario.Env.URL) and one on each other instance, made on
// first use. A key that is the client address (KEY=ip) cannot be sent
// through clients of their own addresses: the scenario skips.
func (s *state) instanceClients(first scenario.Client) ([]scenario.Client, error) {
	urls, err := s.instances()
	if err != nil {
		return nil, err
	}
	if s.Env().Config.Profile != profile.PRD && s.Env().Config.Key.Kind == service.KeyIP {
		return nil, scenario.Skip("KEY=ip: the key is the client address, and each instance's client has an address of its own; run multi-instance with a header or body key")
	}
	if s.others == nil {
		for _, u := range urls[1:] {
			c := s.Env().NewClient(u)
			s.Track(c)
			s.others = append(s.others, c)
		}
	}
	return append([]scenario.Client{first}, s.others...), nil
}

// roundRobin sends each request to the next of its senders in turn.
type roundRobin struct {
	to   []scenario.Client
	next atomic.Uint64
}

var _ scenario.Sender = (*roundRobin)(nil)

func (r *roundRobin) Do(ctx context.Context, req httpclient.Request) *httpclient.Exchange {
	i := r.next.Add(1) - 1
	return r.to[i%uint64(len(r.to))].Do(ctx, req)
}

// ridesOverInstances releases Q+k fresh rides on the bucket at once, Q its
// units left (from its last response), spread round-robin over the
// instances (the PRD's batch record, as AC7's).
func (s *state) ridesOverInstances(k int) error {
	cs, err := s.instanceClients(s.Client())
	if err != nil {
		return err
	}
	n := s.prd.UnitsLeft() + k
	reqs, err := s.Requests(n, bodytmpl.Bucket(s.prd.Bucket.ID))
	if err != nil {
		return err
	}
	s.prd.Batch = scenario.Batch{Sent: n, Left: s.prd.UnitsLeft()}
	s.prd.Batch.Exchanges, err = s.Fire(&roundRobin{to: cs}, reqs, time.Time{})
	return err
}

// keyedOverInstances releases N+k (token-bucket: B+k) requests of the key
// at once, spread round-robin over the instances.
func (s *state) keyedOverInstances(of string, k int) error {
	if s.key.Key.Client == nil {
		return scenario.Precondition(errors.New("no key: the scenario must start with a fresh key"))
	}
	cs, err := s.instanceClients(s.key.Key.Client)
	if err != nil {
		return err
	}
	n := s.Limit()
	if of == "B" {
		n = s.key.Burst()
	}
	return s.key.ConcurrentNWith(&roundRobin{to: cs}, n+k)
}

// bucketThroughEach sends one ride of a fresh bucket through each instance
// in turn: each spends one unit of the one shared bucket, so the i-th
// response (from 0) says N-1-i left.
func (s *state) bucketThroughEach() error {
	if err := s.prd.FreshBucket(); err != nil {
		return err
	}
	cs, err := s.instanceClients(s.Client())
	if err != nil {
		return err
	}
	if len(cs) > s.Limit() {
		return scenario.Skip("the scenario spends one unit through each of %d instances, more than RL_LIMIT=%d: run it with a larger RL_LIMIT", len(cs), s.Limit())
	}
	for i, c := range cs {
		ex, err := s.prd.OneWith(c, bodytmpl.Bucket(s.prd.Bucket.ID), nil)
		if err != nil {
			return scenario.Precondition(err)
		}
		if i == 0 {
			if err := s.prd.ExpectFirst(ex, s.Limit()-1); err != nil {
				return scenario.Precondition(err)
			}
			continue
		}
		rl, perr := ex.RateLimit()
		if want := s.Limit() - 1 - i; ex.Status != http.StatusOK || perr != nil || int(rl.Remaining) != want {
			return scenario.Violate(s.Refs(), fmt.Sprintf("ride %d of a fresh bucket, through instance %d after one through each before it", i+1, i+1),
				fmt.Sprintf("200 with X-RateLimit-Remaining %d (one unit spent on each instance before)", want), check.Describe(ex), s.Exchanges()...)
		}
	}
	return nil
}

// bucketToThroughFirst spends the bucket down to at most n units left
// through the first instance, one ride after another (never through
// TARGET_DB: the instances must see each other's spending).
func (s *state) bucketToThroughFirst(n int) error {
	if _, err := s.instances(); err != nil {
		return err
	}
	return s.prd.SpendTo(n, false)
}

// bucketRefusedElsewhere sends one ride of the spent bucket through each
// other instance: each must be a 429. An allow is a violation only when
// the bucket's requests lay in one window (the refill check every bucket
// scenario rests on, steps/scenario/assume.go).
func (s *state) bucketRefusedElsewhere() error {
	if len(s.others) == 0 {
		return scenario.Precondition(errors.New("no other instance: the scenario must start with a ride through each instance"))
	}
	for i, c := range s.others {
		ex, err := s.prd.OneWith(c, bodytmpl.Bucket(s.prd.Bucket.ID), nil)
		if err != nil {
			return err
		}
		if !ex.Refused() {
			return scenario.Violate(s.Refs(), fmt.Sprintf("a bucket whose whole limit was spent, through instance %d", i+2),
				"429", check.Describe(ex), s.Exchanges()...)
		}
	}
	return nil
}

// keyThroughEach sends one request of the scenario's fresh key through
// each instance, released together (token-bucket: just after a whole
// second), each allowed: the start of the key's one run.
func (s *state) keyThroughEach() error {
	if s.key.Key.Client == nil {
		return scenario.Precondition(errors.New("no key: the scenario must start with a fresh key"))
	}
	cs, err := s.instanceClients(s.key.Key.Client)
	if err != nil {
		return err
	}
	if len(cs) > s.quota() {
		return scenario.Skip("the scenario spends one request through each of %d instances, more than the limit %d: run it with a larger limit", len(cs), s.quota())
	}
	if profile.Of(s.Env().Config.Profile).Refill == profile.RefillRate {
		// what follows must lie within one whole second (assumeQuotaStillSpent)
		if err := s.WaitUntil(s.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)); err != nil {
			return err
		}
	}
	senders := make([]scenario.Sender, len(cs))
	for i, c := range cs {
		senders[i] = c
	}
	run, err := s.key.SendEachAtOnce(senders)
	s.key.Key.Runs = append(s.key.Key.Runs, run)
	if err != nil {
		return scenario.Precondition(err)
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of a fresh key, through instance %d, sent with one through each other instance", i+1, i+1),
				"2xx", fmt.Sprintf("HTTP %d", ex.Status), run...)
		}
	}
	return nil
}

// keyRestThroughFirst sends the rest of the key's limit (N, token-bucket
// B) through the first instance, released together, each allowed; they
// join the key's run.
func (s *state) keyRestThroughFirst() error {
	if len(s.key.Key.Runs) == 0 {
		return scenario.Precondition(errors.New("the scenario must start with a request through each instance"))
	}
	runs := s.key.Key.Runs
	if len(runs[len(runs)-1]) >= s.quota() {
		return nil
	}
	rest, err := s.key.SendAtOnce(s.quota() - len(runs[len(runs)-1]))
	runs = append(runs[:len(runs)-1], append(runs[len(runs)-1], rest...)) // one run with the requests before
	s.key.Key.Runs = runs
	if err != nil {
		return err
	}
	for _, ex := range rest {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%d requests of a fresh key within one window, the last %d at once", s.quota(), len(rest)),
				"2xx for each", fmt.Sprintf("HTTP %d", ex.Status), runs[len(runs)-1]...)
		}
	}
	return nil
}

// keyRefusedElsewhere sends one request of the spent key through each other
// instance, released together: each must be a 429. An allow is a violation only when the
// key's run and it lay in one window (token-bucket: less than 1/R and one
// whole second, so that no token came back).
func (s *state) keyRefusedElsewhere() error {
	if len(s.others) == 0 {
		return scenario.Precondition(errors.New("no other instance: the scenario must start with a request through each instance"))
	}
	senders := make([]scenario.Sender, len(s.others))
	for i, c := range s.others {
		senders[i] = c
	}
	exs, err := s.key.SendEachAtOnce(senders)
	if err != nil {
		return err
	}
	for _, ex := range exs {
		s.assumeQuotaStillSpent(ex)
	}
	for i, ex := range exs {
		if !ex.Refused() {
			return scenario.Violate(s.Refs(), fmt.Sprintf("a key that spent its limit, through instance %d", i+2), "429",
				fmt.Sprintf("HTTP %d", ex.Status), append(slices.Clone(s.key.Key.Runs[len(s.key.Key.Runs)-1]), ex)...)
		}
	}
	return nil
}

// keyExactly checks every request of the key together (its requests
// through each instance and its burst): exactly N allowed (token-bucket: B,
// plus the whole tokens refilled meanwhile), the rest 429. More than N is a
// violation only when they lay in one window, which exactlyN checks
// afterwards (assumeBatchInOneWindow).
func (s *state) keyExactly(of string) error {
	var all []*httpclient.Exchange
	for _, run := range s.key.Key.Runs {
		all = append(all, run...)
	}
	if len(all) == 0 {
		return scenario.Precondition(errors.New("no request of the key was sent"))
	}
	s.key.Batch = scenario.Batch{Exchanges: all, Sent: len(all)}
	if of == "B" {
		return tokenbucket.ExactlyBurst(s.key)
	}
	return s.key.ExactlyN()
}

// assumeQuotaStillSpent: an allow of ex, sent after the key's run spent
// its limit, breaks the profile only when nothing could have come back
// meanwhile — one window (assumeRunInOneWindow), or for a design that
// gives quota back at R (token-bucket) less than 1/R and one whole second
// from the run's first send to ex's receive.
func (s *state) assumeQuotaStillSpent(ex *httpclient.Exchange) {
	if profile.Of(s.Env().Config.Profile).Refill != profile.RefillRate {
		s.key.AssumeRunInOneWindow(ex)
		return
	}
	run := s.key.Key.Runs[len(s.key.Key.Runs)-1]
	s.Assume("the key's run and the request after it within one second and less than 1/R", func() string {
		if ex.Refused() {
			return "" // refused: the verdict rests on no timing
		}
		first := run[0]
		if span := ex.Received.Sub(first.Sent); span >= s.key.PerToken() || ex.Received.Unix() != first.Sent.Unix() {
			return fmt.Sprintf("%d requests took %s from %s", len(run)+1, span.Round(time.Millisecond), first.Sent.Format("15:04:05.000"))
		}
		return ""
	})
}

// quota is what a fresh key may spend at once, as the profile's entry
// reads it: N, token-bucket's B.
func (s *state) quota() int { return s.Env().Config.Quota() }

// chargeMI1 charges a violation of a multi-instance scenario to MI-1
// first: whatever clause it broke, it broke it over several instances.
func chargeMI1(v *scenario.Violation) {
	if !v.Precondition && !v.Clause.Has(clause.MI1) {
		v.Clause = append(clause.Of(clause.MI1), v.Clause...)
	}
}
