package fakeserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"testing"
	"time"
)

// detector exercises one clause against a server built by mk (with the fault
// under test) and says whether the clause is broken, with evidence.
type detector func(t *testing.T, mk func(func(*Config)) tserver) (broken bool, why string)

func codes(ws []*httptest.ResponseRecorder) (ok int) {
	for _, w := range ws {
		if w.Code == 200 {
			ok++
		}
	}
	return ok
}

var detectors = map[Fault]detector{
	FaultCheckThenAct: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 20 })
		ok := codes(s.parallel(200, call{body: rideBody(devBucket(1))}))
		return ok > 20, fmt.Sprintf("%d of 200 allowed with limit 20", ok)
	},
	FaultReplaySpends: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(nil)
		c := call{body: rideBody(devBucket(1)), key: "k"}
		s.do(c)
		s.do(c)
		r := remaining(s.post(devBucket(1)))
		return r != 498, fmt.Sprintf("Remaining %d after one spend, one replay, one spend", r)
	},
	FaultConcurrentReplays: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(nil)
		s.parallel(40, call{body: rideBody(devBucket(1)), key: "k"})
		r := remaining(s.post(devBucket(1)))
		return r != 498, fmt.Sprintf("40 concurrent identical requests spent %d", 499-r)
	},
	FaultReplayIgnoresBody: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(nil)
		s.do(call{body: rideBody(devBucket(1)), key: "k"})
		w := s.do(call{body: rideBody(devBucket(2)), key: "k"})
		return w.Code == 200, fmt.Sprintf("same key, other body: %d", w.Code)
	},
	FaultNoHeaders429: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return w.Code != 429 || remaining(w) < 0, fmt.Sprintf("429 headers %v", w.Header())
	},
	FaultOffByOne: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		r := remaining(mk(nil).post(devBucket(1)))
		return r != 499, fmt.Sprintf("first Remaining %d", r)
	},
	FaultNoReset: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		w := s.post(devBucket(1))
		return w.Code != 200, fmt.Sprintf("after the window: %d", w.Code)
	},
	FaultResetKeepsReset: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r < s.clk.Now().Unix(), fmt.Sprintf("Reset %d, now %d", r, s.clk.Now().Unix())
	},
	FaultResetRace: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 5; c.Window = 10 * time.Second })
		s.post(devBucket(1))
		s.clk.Advance(11 * time.Second)
		ok := codes(s.parallel(50, call{body: rideBody(devBucket(1))}))
		return ok > 5, fmt.Sprintf("%d allowed at the boundary with limit 5", ok)
	},
	Fault429PushesWindow: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		first := reset(s.post(devBucket(1)))
		s.clk.Advance(3 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r != first, fmt.Sprintf("Reset %d then %d", first, r)
	},
	FaultSlidingReset: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(nil)
		first := reset(s.post(devBucket(1)))
		s.clk.Advance(3 * time.Second)
		r := reset(s.post(devBucket(1)))
		return r != first, fmt.Sprintf("Reset %d then %d", first, r)
	},
	FaultNoIPFallback: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		s.do(call{remote: "192.0.2.1:1", body: rideBody(nil)})
		w := s.do(call{remote: "192.0.2.2:1", body: rideBody(nil)})
		return w.Code != 200, fmt.Sprintf("another address got %d", w.Code)
	},
	FaultInvalidBucketKey: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		s.post("x")
		w := s.post("y")
		return w.Code == 200, fmt.Sprintf("second invalid bucket from one address got %d", w.Code)
	},
	FaultTrustXFF: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		s.do(call{body: rideBody(nil), header: http.Header{"X-Forwarded-For": {"203.0.113.1"}}})
		w := s.do(call{body: rideBody(nil), header: http.Header{"X-Forwarded-For": {"203.0.113.2"}}})
		return w.Code == 200, fmt.Sprintf("spoofed X-Forwarded-For got %d", w.Code)
	},
	FaultFlagIgnored: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Enabled = false; c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return w.Code != 200 || remaining(w) != 999, fmt.Sprintf("flag off, past the limit: %d Remaining %d", w.Code, remaining(w))
	},
	FaultNoHeadersFlagOff: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		w := mk(func(c *Config) { c.Enabled = false }).post(devBucket(1))
		return remaining(w) < 0 || reset(w) < 0, fmt.Sprintf("flag-off headers %v", w.Header())
	},
	FaultProcessCache: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		// Two replicas (two servers, two caches) on one database file.
		path := filepath.Join(t.TempDir(), "shared.db")
		a := mk(func(c *Config) { c.Limit = 10; c.DBPath = path })
		b := mk(func(c *Config) { c.Limit = 10; c.DBPath = path })
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
	FaultNoRetryAfter: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		s := mk(func(c *Config) { c.Limit = 1 })
		s.post(devBucket(1))
		w := s.post(devBucket(1))
		return hdr(w, "Retry-After") < 1, fmt.Sprintf("Retry-After %q", w.Header().Get("Retry-After"))
	},
	FaultNoHeadersFallback: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		w := mk(nil).do(call{body: rideBody(nil)})
		return remaining(w) < 0 || reset(w) < 0, fmt.Sprintf("IP-fallback response headers %v", w.Header())
	},
	FaultBadInput500: func(t *testing.T, mk func(func(*Config)) tserver) (bool, string) {
		w := mk(nil).do(call{body: `{"route_id":`})
		return w.Code >= 500, fmt.Sprintf("malformed JSON: %d", w.Code)
	},
}

// The fault matrix in miniature: the reference breaks no clause; every fault
// breaks its own (racy ones get a few attempts).
func TestFaultsBreakTheirClause(t *testing.T) {
	if len(detectors) != len(Faults()) {
		t.Fatalf("%d detectors for %d faults", len(detectors), len(Faults()))
	}
	for _, info := range Faults() {
		det := detectors[info.Fault]
		if det == nil {
			t.Fatalf("no detector for %s", info.Fault)
		}
		t.Run(string(info.Fault), func(t *testing.T) {
			mkWith := func(f Fault) func(func(*Config)) tserver {
				return func(m func(*Config)) tserver {
					return newTest(t, func(c *Config) {
						c.Fault = f
						c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
						if m != nil {
							m(c)
						}
					})
				}
			}
			if broken, why := det(t, mkWith(FaultNone)); broken {
				t.Fatalf("reference breaks %s: %s", info.Clause, why)
			}
			var why string
			for attempt := 0; attempt < 5; attempt++ {
				var broken bool
				if broken, why = det(t, mkWith(info.Fault)); broken {
					t.Logf("%s (%s): %s", info.Fault, info.Clause, why)
					return
				}
			}
			t.Fatalf("fault %s not detected: %s", info.Fault, why)
		})
	}
}

func TestParseFault(t *testing.T) {
	for _, f := range Faults() {
		if got, err := ParseFault(string(f.Fault)); err != nil || got != f.Fault || f.Clause == "" || f.Description == "" {
			t.Errorf("%s: %v %v", f.Fault, got, err)
		}
	}
	if f, err := ParseFault("none"); err != nil || f != FaultNone {
		t.Error("none")
	}
	if _, err := ParseFault("bogus"); err == nil {
		t.Error("bogus accepted")
	}
}
