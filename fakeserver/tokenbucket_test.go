package fakeserver

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
)

// TestTokenBucketProfile serves RL_PROFILE=token-bucket (B 3, R 2/s) on
// SQLite and PostgreSQL: a burst of B, a refill of half a token kept
// across requests, headers and the 429, and the bucket's level surviving
// a restart on the same store.
func TestTokenBucketProfile(t *testing.T) {
	stores := map[string]func(t *testing.T, c *Config){
		"sqlite": func(t *testing.T, c *Config) { c.DBPath = filepath.Join(t.TempDir(), "rl.db") },
		"postgres": func(t *testing.T, c *Config) {
			dsn, err := storetest.Postgres(t).CreateDatabase(context.Background(), "tb")
			if err != nil {
				t.Fatal(err)
			}
			c.Store, c.DatabaseURL = StorePostgres, dsn
		},
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			clk := reference.NewFakeClock(t0)
			cfg := DefaultConfig()
			cfg.Clock, cfg.Profile, cfg.Burst, cfg.Rate = clk, profile.TokenBucket, 3, 2
			store(t, &cfg)
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { s.Close() }()
			srv := tserver{s, clk}
			for i := range 3 {
				if w := srv.do(get("alice")); w.Code != 200 || remaining(w) != int64(2-i) || hdr(w, "X-RateLimit-Limit") != 3 {
					t.Fatalf("request %d: %d %v", i+1, w.Code, w.Header())
				}
			}
			if w := srv.do(get("alice")); w.Code != 429 || hdr(w, "Retry-After") != 1 || remaining(w) != 0 || reset(w) != t0.Unix()+2 {
				t.Fatalf("429: %d %v %s", w.Code, w.Header(), w.Body)
			}
			clk.Advance(750 * time.Millisecond) // 1.5 tokens: one spent, half kept
			if w := srv.do(get("alice")); w.Code != 200 || remaining(w) != 0 {
				t.Fatalf("after 750 ms: %d %v", w.Code, w.Header())
			}
			s.Close() // the level is in the store, not the process
			if s, err = New(cfg); err != nil {
				t.Fatal(err)
			}
			srv = tserver{s, clk}
			clk.Advance(250 * time.Millisecond) // the kept half and a half: one token
			if w := srv.do(get("alice")); w.Code != 200 || remaining(w) != 0 {
				t.Fatalf("after a restart and 250 ms more: %d %v", w.Code, w.Header())
			}
			if w := srv.do(get("alice")); w.Code != 429 {
				t.Fatalf("spent again: %d", w.Code)
			}
			if w := srv.do(get("bob")); w.Code != 200 || remaining(w) != 2 {
				t.Fatalf("another user: %d %v", w.Code, w.Header())
			}
		})
	}
}

func TestTokenBucketFromEnv(t *testing.T) {
	env := map[string]string{"RL_PROFILE": "token-bucket", "RL_BURST": "7", "RL_RATE": "0.5"}
	c, err := ConfigFromEnv(envflag.Map(env))
	if err != nil || c.Profile != profile.TokenBucket || c.Burst != 7 || c.Rate != 0.5 {
		t.Fatalf("%+v %v", c, err)
	}
	for k, v := range map[string]string{"RL_BURST": "0", "RL_RATE": "-1"} {
		if _, err := ConfigFromEnv(func(q string) (string, bool) { return v, q == k }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	for _, v := range []string{"NaN", "x", "0", "Inf"} {
		if _, err := ConfigFromEnv(func(q string) (string, bool) { return v, q == "RL_RATE" }); err == nil {
			t.Errorf("RL_RATE=%s accepted", v)
		}
	}
}
