package fault_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/fault/fixedwindow"
	"github.com/rlspec/rlspec/fault/leakybucket"
	"github.com/rlspec/rlspec/fault/penalties"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/fault/slidinglog"
	"github.com/rlspec/rlspec/fault/swcounter"
	"github.com/rlspec/rlspec/fault/tokenbucket"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// detector exercises one clause against a server built by mk (with the fault
// under test) and says whether the clause is broken, with evidence.
type detector func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (broken bool, why string)

func codes(ws []*httptest.ResponseRecorder) (ok int) {
	for _, w := range ws {
		if w.Code == 200 {
			ok++
		}
	}
	return ok
}

var detectors = map[fault.Name]detector{
	prd.CheckThenActName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 20 })
		ok := codes(s.parallel(200, call{Body: rideBody(devBucket(1))}))
		return ok > 20, fmt.Sprintf("%d of 200 allowed with limit 20", ok)
	},
	prd.ReplaySpendsName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(nil)
		c := call{Body: rideBody(devBucket(1)), Key: "k"}
		s.do(c)
		s.do(c)
		r := remaining(s.post(devBucket(1)))
		return r != 498, fmt.Sprintf("Remaining %d after one spend, one replay, one spend", r)
	},
	prd.ConcurrentReplaysName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(nil)
		s.parallel(40, call{Body: rideBody(devBucket(1)), Key: "k"})
		r := remaining(s.post(devBucket(1)))
		return r != 498, fmt.Sprintf("40 concurrent identical requests spent %d", 499-r)
	},
	fault.MemoryQuota: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		// A restart: a second server on the first one's file.
		path := filepath.Join(t.TempDir(), "rl.db")
		onFile := func(c *fakeserver.Config) { c.DBPath = path }
		first := mk(onFile)
		first.post(devBucket(1))
		first.post(devBucket(1))
		first.Close()
		r := remaining(mk(onFile).post(devBucket(1)))
		return r != 497, fmt.Sprintf("Remaining %d after two spends and a restart", r)
	},
	prd.ReplayIgnoresBodyName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(nil)
		s.do(call{Body: rideBody(devBucket(1)), Key: "k"})
		w := s.do(call{Body: rideBody(devBucket(2)), Key: "k"})
		return w.Code == 200, fmt.Sprintf("same key, other body: %d", w.Code)
	},
	prd.NoHeaders429Name: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return w.Code != 429 || remaining(w) < 0, fmt.Sprintf("429 headers %v", w.Header())
	},
	prd.OffByOneName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		r := remaining(mk(nil).post(devBucket(1)))
		return r != 499, fmt.Sprintf("first Remaining %d", r)
	},
	prd.NoResetName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		w := s.post(devBucket(1))
		return w.Code != 200, fmt.Sprintf("after the window: %d", w.Code)
	},
	prd.ResetKeepsResetName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r < s.clk.Now().Unix(), fmt.Sprintf("Reset %d, now %d", r, s.clk.Now().Unix())
	},
	prd.ResetRaceName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 5; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		ok := codes(s.parallel(50, call{Body: rideBody(devBucket(1))}))
		return ok > 5, fmt.Sprintf("%d allowed at the boundary with limit 5", ok)
	},
	prd.PushesWindow429Name: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		first := reset(s.post(devBucket(1)))
		s.clk.Advance(3 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r != first, fmt.Sprintf("Reset %d then %d", first, r)
	},
	prd.SlidingResetName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(nil)
		first := reset(s.post(devBucket(1)))
		s.clk.Advance(3 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r != first, fmt.Sprintf("Reset %d then %d", first, r)
	},
	prd.NoIPFallbackName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		s.do(call{Remote: "192.0.2.1:1", Body: rideBody(nil)})
		w := s.do(call{Remote: "192.0.2.2:1", Body: rideBody(nil)})
		return w.Code != 200, fmt.Sprintf("another address got %d", w.Code)
	},
	prd.InvalidBucketKeyName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		s.post("x")
		w := s.post("y")
		return w.Code == 200, fmt.Sprintf("second invalid bucket from one address got %d", w.Code)
	},
	prd.TrustXFFName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		s.do(call{Body: rideBody(nil), Header: http.Header{"X-Forwarded-For": {"203.0.113.1"}}})
		w := s.do(call{Body: rideBody(nil), Header: http.Header{"X-Forwarded-For": {"203.0.113.2"}}})
		return w.Code == 200, fmt.Sprintf("spoofed X-Forwarded-For got %d", w.Code)
	},
	prd.FlagIgnoredName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Enabled = false; c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return w.Code != 200 || remaining(w) != 999, fmt.Sprintf("flag off, past the limit: %d Remaining %d", w.Code, remaining(w))
	},
	prd.NoHeadersFlagOffName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		w := mk(func(c *fakeserver.Config) { c.Enabled = false }).post(devBucket(1))
		return remaining(w) < 0 || reset(w) < 0, fmt.Sprintf("flag-off headers %v", w.Header())
	},
	fault.ProcessCache: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		// Two replicas (two servers, two caches) on one database file.
		path := filepath.Join(t.TempDir(), "shared.db")
		a := mk(func(c *fakeserver.Config) { c.Limit = 10; c.DBPath = path })
		b := mk(func(c *fakeserver.Config) { c.Limit = 10; c.DBPath = path })
		ok := 0
		for i := 0; i < 20; i++ {
			s := a
			if i%2 == 1 {
				s = b
			}
			if s.post(devBucket(1)).Code == 200 {
				ok++
			}
		}
		return ok > 10, fmt.Sprintf("%d of 20 allowed across two replicas with limit 10", ok)
	},
	prd.NoRetryAfterName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		s := mk(func(c *fakeserver.Config) { c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return hdr(w, "Retry-After") < 1, fmt.Sprintf("Retry-After %q", w.Header().Get("Retry-After"))
	},
	prd.NoHeadersFallbackName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		w := mk(nil).do(call{Body: rideBody(nil)})
		return remaining(w) < 0 || reset(w) < 0, fmt.Sprintf("IP-fallback response headers %v", w.Header())
	},
	prd.AuthSpendsName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		const token = "Bearer t0ken"
		s := mk(func(c *fakeserver.Config) { c.RequireAuth = token })
		ok := http.Header{"Authorization": {token}}
		s.do(call{Body: rideBody(devBucket(1)), Header: ok})
		for _, h := range []http.Header{nil, {"Authorization": {"Bearer wrong"}}} {
			if w := s.do(call{Body: rideBody(devBucket(1)), Header: h}); w.Code != http.StatusUnauthorized {
				return true, fmt.Sprintf("Authorization %v: %d, want 401", h, w.Code)
			}
		}
		r := remaining(s.do(call{Body: rideBody(devBucket(1)), Header: ok}))
		return r != 498, fmt.Sprintf("Remaining %d after two spends and two refusals", r)
	},
	prd.FailOpenName: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		// The store's write lock held by another connection past the busy
		// timeout: the decision cannot be stored.
		path := filepath.Join(t.TempDir(), "locked.db")
		s := mk(func(c *fakeserver.Config) { c.DBPath, c.BusyTimeout = path, 50*time.Millisecond })
		release := holdWriteLock(t, path)
		defer release()
		w := s.post(devBucket(1))
		return w.Code == 200, fmt.Sprintf("with the store locked: %d", w.Code)
	},
	prd.BadInput500Name: func(t *testing.T, mk func(func(*fakeserver.Config)) tserver) (bool, string) {
		w := mk(nil).do(call{Body: `{"route_id":`})
		return w.Code >= 500, fmt.Sprintf("malformed JSON: %d", w.Code)
	},
	slidinglog.SLSameSecond:       slSameSecondDetector,
	slidinglog.SLCheckThenRecord:  concurrentDetector(slServer, 40, 3),
	slidinglog.SLResetNow:         slResetDetector,
	slidinglog.SLRefusedRecorded:  slRefusedDetector,
	slidinglog.SLRetryAfterWindow: slRetryAfterLongDetector,
	slidinglog.SLRetryAfterShort:  slRetryAfterShortDetector,
	slidinglog.SLKeyIgnored:       keysDetector(slServer, 3),
	slidinglog.SLAnonymousShared:  anonymousDetector(slServer, 3),
	slidinglog.SLWeightedCounter:  slCounterDetector,

	penalties.PNRefusedCounted:   pnRefusedCountedDetector,
	penalties.PNRefusedEscalates: pnRefusedEscalatesDetector,
	penalties.PNNoEscalation:     pnNoEscalationDetector,
	penalties.PNSpends:           pnSpendsDetector,
	penalties.PNNeverForgets:     pnNeverForgetsDetector,
	penalties.PNReleaseLate:      pnReleaseLateDetector,
	penalties.PNLostViolation:    pnLostViolationDetector,
	slidinglog.BypassSpendsName: func(_ *testing.T, mk mkServer) (bool, string) {
		s := mk(func(c *fakeserver.Config) {
			c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 10*time.Second
			c.Bypass = http.Header{"X-Role": {"admin"}}
		})
		admin := user("u", "")
		admin.Header.Set("X-Role", "admin")
		s.spend(8, admin)
		_, ok := s.spend(3, user("u", ""))
		return ok < 3, fmt.Sprintf("after 8 bypass requests, %d of 3 normal ones allowed", ok)
	},
	slidinglog.TierSharedCountName: func(_ *testing.T, mk mkServer) (bool, string) {
		s := mk(func(c *fakeserver.Config) {
			c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 10*time.Second
			c.Tiers = []model.Tier{{Path: "/v1/search", Method: http.MethodGet, Limit: 2, Window: 10 * time.Second}}
		})
		search := user("u", "")
		search.Path = "/v1/search"
		_, tier := s.spend(2, search)
		_, ok := s.spend(3, user("u", ""))
		return tier != 2 || ok < 3, fmt.Sprintf("tier: %d of 2 allowed, then the endpoint: %d of 3", tier, ok)
	},
	slidinglog.IETFResetTimestamp: func(_ *testing.T, mk mkServer) (bool, string) {
		s := mk(func(c *fakeserver.Config) {
			c.Profile, c.Limit, c.Window, c.IETF = profile.SlidingLog, 3, 10*time.Second, true
		})
		f, err := dialect.ReadIETF(s.do(user("u", "")).Header())
		return err != nil || f.Limit.Reset > 11, fmt.Sprintf("RateLimit t=%d with W = 10 s (%v)", f.Limit.Reset, err)
	},

	fixedwindow.FWLimitFromRemaining: limitDetector(fwServer, 3),
	fixedwindow.FWFirstRequestWindow: fwEpochDetector,
	fixedwindow.FWBoundaryRace:       fwBoundaryDetector,
	fixedwindow.FWInsertRace:         concurrentDetector(fwServer, 50, 3),
	fixedwindow.FWOffByOne:           fwOffByOneDetector,
	fixedwindow.FWOneShort:           fwOneShortDetector,
	fixedwindow.FWAnonymousShared:    anonymousDetector(fwServer, 3),
	fixedwindow.FWBody:               fwBodyDetector,
	fixedwindow.FWKeyGrid:            fwKeyGridDetector,
	fixedwindow.FWRefusalMovesWindow: fwRetryDetector,
	fixedwindow.FWGridFirstRequest:   fwGridNextDetector(profile.AlignKeyGrid, 3*time.Second, 28*time.Second, 33*time.Second),
	fixedwindow.FWGridDrift:          fwGridNextDetector(profile.AlignGrid, 0, 10*time.Second),

	swcounter.SWCFixedWindow:        swcWeightedDetector,
	swcounter.SWCWeightsWrong:       swcWeightedDetector,
	swcounter.SWCCountsRefused:      swcOverBlockingDetector,
	swcounter.SWCLostUpdate:         swcConcurrentDetector,
	swcounter.SWCKeyGridEpoch:       swcKeyGridDetector,
	swcounter.SWCRetryAfterShort:    swcRetryAfterDetector,
	swcounter.SWCResetWindowStart:   swcResetDetector,
	swcounter.SWCKeyIgnored:         keysDetector(swcServer5, 5),
	swcounter.SWCAnonymousShared:    anonymousDetector(swcServer5, 5),
	swcounter.SWCLimitFromRemaining: limitDetector(swcServer5, 5),

	leakybucket.LBUnbounded:      lbBoundDetector(false),
	leakybucket.LBRefusesWaiters: lbBoundDetector(false),
	leakybucket.LBNoDelayFrees:   lbBoundDetector(true),
	leakybucket.LBFixedSleep:     lbSpacingDetector,
	leakybucket.LBOneQueue:       lbKeysDetector,
	leakybucket.LBLostUpdate:     concurrentDetector(lbIdle, 30, 4),
	leakybucket.LBRefusal503:     lbRefusalDetector,
	leakybucket.LBNoDelayIgnored: lbHeldDetector(true),
	leakybucket.LBDelayIgnored:   lbHeldDetector(false),

	tokenbucket.TBWholeSecondRefill:   tbSteadyDetector,
	tokenbucket.TBBinaryRefill:        tbRefillDetector,
	tokenbucket.TBUncapped:            tbCapDetector,
	tokenbucket.TBRetryAfterTruncated: tbRetryAfterDetector,
	tokenbucket.TBLostUpdate:          concurrentDetector(tbServer, 30, 5),
	tokenbucket.TBLimitFromRemaining:  limitDetector(tbServer, 5),
	tokenbucket.TBAnonymousShared:     tbAnonymousDetector,
	tokenbucket.TBKeyIgnored:          tbKeysDetector,

	fault.SLMemoryQuota: memoryQuotaDetector(profile.SlidingLog),
	fault.FWMemoryQuota: memoryQuotaDetector(profile.FixedWindow),
	fault.TBMemoryQuota: memoryQuotaDetector(profile.TokenBucket),

	fault.SLProcessCache: processCacheDetector(profile.SlidingLog),
	fault.FWProcessCache: processCacheDetector(profile.FixedWindow),
	fault.TBProcessCache: processCacheDetector(profile.TokenBucket),
}

// The fault matrix in miniature: the reference breaks no clause; every fault
// breaks its own (racy ones get a few attempts).
func TestFaultsBreakTheirClause(t *testing.T) {
	if len(detectors) != len(faults.All()) {
		t.Fatalf("%d detectors for %d faults", len(detectors), len(faults.All()))
	}
	for _, f := range faults.All() {
		det := detectors[f.Name]
		if det == nil {
			t.Fatalf("no detector for %s", f.Name)
		}
		t.Run(string(f.Name), func(t *testing.T) {
			mkWith := func(n fault.Name) func(func(*fakeserver.Config)) tserver {
				return func(m func(*fakeserver.Config)) tserver {
					return newTest(t, n, func(c *fakeserver.Config) {
						c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
						if m != nil {
							m(c)
						}
					})
				}
			}
			if broken, why := det(t, mkWith(fault.None)); broken {
				t.Fatalf("reference breaks %s: %s", f.Breaks, why)
			}
			var why string
			for range 5 {
				var broken bool
				if broken, why = det(t, mkWith(f.Name)); broken {
					t.Logf("%s (%s): %s", f.Name, f.Breaks, why)
					return
				}
			}
			t.Fatalf("fault %s not detected: %s", f.Name, why)
		})
	}
}

// Every fault names itself, its clauses (registered ones), a description
// and a detector; names parse back and are unique.
func TestRegistry(t *testing.T) {
	seen := map[fault.Name]bool{}
	for _, f := range faults.All() {
		if got, err := faults.Parse(string(f.Name)); err != nil || got != f.Name || f.Description == "" || f.Wrap == nil {
			t.Errorf("%s: %v %v", f.Name, got, err)
		}
		if len(f.Breaks) == 0 {
			t.Errorf("%s breaks no clause", f.Name)
		}
		for _, id := range f.Breaks {
			if !id.Known() {
				t.Errorf("%s: unknown clause %s", f.Name, id)
			}
		}
		if len(f.Detectors.Scenarios) == 0 && !f.Detectors.Race {
			// Only a fault whose clauses no scenario checks yet may wait
			// for its scenarios; TestFaultsBreakTheirClause still shows it
			// breaks them.
			if pending, err := acceptance.AwaitingScenarios(f.Profile, f.Align, f.Breaks...); err != nil || !pending {
				t.Errorf("%s has no detector, yet scenarios check %s (%v)", f.Name, f.Breaks, err)
			}
		}
		if seen[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		seen[f.Name] = true
	}
	if n, err := faults.Parse("none"); err != nil || n != fault.None {
		t.Error("none")
	}
	if _, err := faults.Parse("bogus"); err == nil {
		t.Error("bogus accepted")
	}
	if _, err := faults.Apply("bogus", fakeserver.DefaultConfig()); err == nil {
		t.Error("Apply accepted an unknown fault")
	}
}
