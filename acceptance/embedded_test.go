package acceptance

import (
	"testing"

	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// startEmbedded starts the embedded reference (with fault f) for tc's
// settings and returns tc pointed at it: URLs and TARGET_DB. It requires
// the Authorization TARGET_HEADERS carries, if any.
func startEmbedded(t testing.TB, tc service.Config, f fault.Name) service.Config {
	t.Helper()
	tc, _ = startEmbeddedPair(t, tc, f)
	return tc
}

// startEmbeddedPair is startEmbedded that also returns the pair (its store
// control).
func startEmbeddedPair(t testing.TB, tc service.Config, f fault.Name) (service.Config, *embedded.Pair) {
	t.Helper()
	cfg, p := startEmbeddedReplicas(t, tc, f, 1)
	return cfg.Target, p
}

// startEmbeddedReplicas is startEmbeddedPair with replicas enabled
// instances on one store (Reached.URLs).
func startEmbeddedReplicas(t testing.TB, tc service.Config, f fault.Name, replicas int) (Config, *embedded.Pair) {
	t.Helper()
	p, err := embedded.StartPair(tc.Limit, tc.Window, tc.Sentinel, embedded.Options{Fault: f, TrustLoopbackProxies: tc.ClientIPs == httpclient.XFF, RequireAuth: tc.Headers.Get("Authorization"),
		Profile: profile.Name(tc.Profile), Align: profile.Align(tc.WindowAlign),
		Burst: tc.Burst, Rate: tc.Rate, Replicas: replicas,
		Penalties: tc.ClaimedPenalties(), IETF: tc.AnswersIETF(), Bypass: tc.ClaimedBypass(), Tiers: tc.ClaimedTiers()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return Config{Target: p.Point(tc), Reached: Reached{URLs: p.URLs, PenaltiesDB: p.PenaltiesDB}}, p
}
