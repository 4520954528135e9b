package steps

import (
	"net/http"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// world is what the clause steps of one scenario share next to the
// engine's state: the bucket under test, the last single exchange and the
// last concurrent or bulk batch.
type world struct {
	*scenario.State
	env *scenario.Env

	enabled bool              // false on the flag-off twin
	spoofer scenario.Client   // sends an untrusted X-Forwarded-For (spoofClient)
	others  []scenario.Client // clients of the instances after the first (MI-1)

	bucket   bucketState
	Key      Key // the key under test (profiles other than the PRD)
	Last     scenario.Last
	Batch    scenario.Batch
	address  addressLedger
	pen      penaltyState // feature penalties: what the key's violations started
	tierRuns []tierRun    // feature tiers: what each tier answered the key
	grid     gridState    // FW-2-02: the key's first request and the multiple of W after it

	windowAssumed bool // the bucket's one-window assumption is recorded
	storeDown     bool // it took the store away and has not brought it back
}

// bucketState is what the scenario knows of the bucket it is testing.
type bucketState struct {
	id     string            // the device bucket ("" until one is made)
	first  *service.Exchange // first exchange on the bucket (or address)
	from   int               // index of the current window's first exchange
	until  int               // index where one window stops mattering (-1: never)
	spent  *service.Exchange // last exchange whose headers say what is left
	seeded bool              // left was set through TARGET_DB
	left   int
}

// Initializer returns the godog ScenarioInitializer: every scenario gets a
// fresh engine state and a fresh world of steps on it.
func Initializer(env *scenario.Env) func(*godog.ScenarioContext) {
	return scenario.Initializer(env, registerWorld)
}

// registerWorld makes the world of one scenario on st and registers every
// area's steps and hooks.
func registerWorld(st *scenario.State, sc scenario.Stepper) {
	newWorld(st).register(sc)
}

func newWorld(st *scenario.State) *world {
	s := &world{State: st, env: st.Env(), enabled: true}
	st.RunAloneIf(takesStore)
	st.AgeWith(func() string { return s.Key.Value })
	st.OnFinish(s.restoreStore)
	st.Explain(s.explainSpend)
	st.Attribute(s.attribute)
	return s
}

// register registers every area's steps on s.
func (s *world) register(sc scenario.Stepper) {
	for _, register := range []func(scenario.Stepper){
		s.registerQuota, s.registerWindow, s.registerIdempotency, s.registerFallback,
		s.registerFlag, s.registerBadInput, s.registerConcurrency, s.registerHeaders, s.registerAuth,
		s.registerFailMode, s.registerPersistence, s.registerKeys, s.registerSlidingLog, s.registerSLPhases, s.registerFixedWindow, s.registerTokenBucket,
		s.registerPenalties, s.registerPNRefusals, s.registerNoPenalty, s.registerIETF, s.registerBypass, s.registerTiers, s.registerMultiInstance,
		s.registerFixedWindowGrid, s.registerFixedWindowRetry, s.registerTokenBucketKeys,
	} {
		register(sc)
	}
}

// one sends a fresh request as the scenario's last exchange; the first one
// on a bucket also becomes its first exchange.
func (s *world) one(c scenario.Sender, f service.BucketField) (*service.Exchange, error) {
	return s.oneWith(c, f, nil)
}

func (s *world) oneWith(c scenario.Sender, f service.BucketField, h http.Header) (*service.Exchange, error) {
	if s.bucket.first == nil {
		if err := s.alignWindowStart(); err != nil {
			return nil, err
		}
		s.bucket.from, s.bucket.until = s.Recorded(), -1
		if !s.windowAssumed {
			s.windowAssumed = true
			s.Assume("one window", func() string { return s.Refill(s.bucket.from, s.bucket.until) })
		}
	}
	r, ex, err := s.SendFresh(c, f, h)
	if ex == nil {
		return nil, err
	}
	s.Last = scenario.Last{Req: r, Ex: ex, Keyed: ex}
	if s.bucket.first == nil {
		s.bucket.first = ex
	}
	if err == nil && ex.Status < 500 {
		if _, perr := ex.RateLimit(); perr == nil {
			s.bucket.spent = ex
		}
	}
	return ex, err
}
