package embedded

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// Options say which reference to start.
type Options struct {
	Fault fault.Name           // a deliberate defect (self-tests); "" the reference
	Store fakeserver.StoreKind // "" or sqlite, or postgres
	// Profile is the design served ("" the PRD); Align fixed-window's
	// window alignment ("" epoch).
	Profile profile.Name
	Align   profile.Align
	// Burst and Rate are token-bucket's B and R (0: the server's
	// defaults); StartQuotas's quotas are bucket sizes instead of Burst.
	Burst int
	Rate  float64
	// QueueDelay and NoDelay are the leaky bucket's RL_DELAY and
	// LB_MODE=nodelay (fakeserver.Config).
	QueueDelay int
	NoDelay    bool
	// Penalties are RL_PENALTIES' tiers: StartPair then starts a third
	// instance with them (Pair.PenaltiesURL); none: no such instance.
	Penalties []model.PenaltyTier
	// IETF adds the IETF fields beside the dialect's (RL_IETF_FIELDS,
	// feature ietf-headers).
	IETF bool
	// Answer is how the reference answers (RL_DIALECT, RL_RESET_FORMAT,
	// RL_HEADER_PREFIX, RL_LIMITED_STATUS; AnswerFor) and RefusalBody its
	// refusal's body (RL_LIMITED_BODY); zero: x-ratelimit, unix, 429, JSON.
	Answer      dialect.Settings
	RefusalBody fakeserver.RefusalBody
	// Bypass are the headers of a bypass identity (RL_BYPASS_HEADERS).
	Bypass http.Header
	// Tiers are RL_TIERS' endpoints (sliding-log).
	Tiers []model.Tier
	// TrustLoopbackProxies honours X-Forwarded-For from loopback peers, for
	// a harness that gives scenarios their addresses that way
	// (CLIENT_IPS=xff).
	TrustLoopbackProxies bool
	// RequireAuth is the Authorization value every instance requires
	// (fakeserver.Config.RequireAuth); "" requires none.
	RequireAuth string
	// Postgres is the cluster whose databases a STORE=postgres set takes
	// (StartPostgres); nil: a cluster of the set's own.
	Postgres *Postgres
	// Replicas is how many enabled instances StartPair starts on one store
	// (0 or 1: one; MI-1 needs more). StartQuotas takes its own count.
	Replicas int
	// Delay and DelayMax slow every request of every instance by a time in
	// [Delay, DelayMax] (fakeserver.Config; the self-test's overload).
	Delay, DelayMax time.Duration
}

// base is the server configuration every instance starts from.
func (o Options) base() fakeserver.Config {
	cfg := fakeserver.DefaultConfig()
	cfg.RequireAuth = o.RequireAuth
	cfg.Delay, cfg.DelayMax = o.Delay, o.DelayMax
	if o.Profile != "" {
		cfg.Profile = o.Profile
	}
	if o.Align != "" {
		cfg.Align = o.Align
	}
	if o.Burst > 0 {
		cfg.Burst = o.Burst
	}
	if o.Rate > 0 {
		cfg.Rate = o.Rate
	}
	cfg.QueueDelay, cfg.NoDelay = o.QueueDelay, o.NoDelay
	cfg.IETF, cfg.Bypass, cfg.Tiers = o.IETF, o.Bypass, o.Tiers
	cfg.Answer, cfg.RefusalBody = o.Answer, o.RefusalBody
	if o.TrustLoopbackProxies {
		cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	return cfg
}

// start applies the fault to the final cfg (a fault sees whether the flag is
// on) and starts it on addr, a loopback address.
func (o Options) start(cfg fakeserver.Config, addr string) (*fakeserver.Running, error) {
	cfg, err := faults.Apply(o.Fault, cfg)
	if err != nil {
		return nil, fmt.Errorf("embedded reference: %w", err)
	}
	return fakeserver.Start(cfg, addr)
}

// startN starts n servers with cfg (each on a store handle of its own, on
// cfg's store), returning those started before any error.
func (o Options) startN(cfg fakeserver.Config, n int) ([]*fakeserver.Running, error) {
	var out []*fakeserver.Running
	for range n {
		run, err := o.start(cfg, "127.0.0.1:0")
		if err != nil {
			return out, err
		}
		out = append(out, run)
	}
	return out, nil
}

// replicas describes Replicas for descriptions: ", 3 replicas" or "".
func (o Options) replicas() string {
	if o.Replicas <= 1 {
		return ""
	}
	return fmt.Sprintf(", %d replicas", o.Replicas)
}

func closeAll(rs []*fakeserver.Running, st *stores) error {
	var errs []error
	for _, r := range rs {
		errs = append(errs, r.Close())
	}
	return errors.Join(append(errs, st.close())...)
}

// profile names a non-PRD profile for descriptions, as its entry labels
// it served with o: "sliding-log, ", "fixed-window epoch, " or "".
func (o Options) profile() string {
	if profile.IsPRD(o.Profile) {
		return ""
	}
	if p, ok := profile.Lookup(o.Profile); ok {
		return p.Label(profile.Params{Align: o.Align, NoDelay: o.NoDelay}) + ", "
	}
	return string(o.Profile) + ", "
}

// AnswerFor is how the embedded reference answers a run with settings tc:
// in the dialect tc names (the server's x-ratelimit when tc leaves it to
// auto), with tc's Reset format, prefix and refusal status, and a text
// refusal when LIMITED_BODY is text:<regexp>.
func AnswerFor(tc service.Config) (dialect.Settings, fakeserver.RefusalBody) {
	a := tc.Answer()
	a.Body = dialect.Body{}
	if !a.Dialect.Concrete() {
		a.Dialect = dialect.Unset
	}
	if tc.LimitedBody.Kind == dialect.BodyText {
		return a, fakeserver.RefusalText
	}
	return a, fakeserver.RefusalJSON
}
