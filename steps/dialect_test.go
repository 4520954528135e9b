package steps

import (
	"context"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// answerer is a target that answers every request with status, header
// and body, for the dialect tests below.
func answerer(t *testing.T, status int, header map[string]string, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// configFrom is the settings an implementer gives in the environment,
// for one profile, as the CLI fills them.
func configFrom(t *testing.T, env map[string]string) service.Config {
	t.Helper()
	c := service.DefaultConfig()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.RegisterFlags(fs, envflag.Map(env))
	if err := fs.Parse(nil); err != nil {
		t.Fatalf("settings %v refused: %v", env, err)
	}
	return c.ForProfile(c.Profile)
}

// exchange sends one request to url as the steps do.
func exchange(t *testing.T, cfg service.Config, url string) *httpclient.Exchange {
	t.Helper()
	c := httpclient.New(cfg, url)
	defer c.Close()
	ex := c.Do(context.Background(), cfg.KeyedRequest("k"))
	if ex.Err != nil {
		t.Fatal(ex.Err)
	}
	return ex
}

// Issue 24, false verdict 1: DIALECT=status is honoured by TB-7 and SL-7,
// which are SKIPPED with the dialect as reason instead of failing with
// "X-RateLimit-Limit is missing".
func TestStatusDialectSkipsHeaderClauses(t *testing.T) {
	for _, profile := range []string{"token-bucket", "sliding-log"} {
		cfg := configFrom(t, map[string]string{"PROFILE": profile, "DIALECT": "status", "RL_LIMIT": "5", "RL_WINDOW": "3", "RL_BURST": "5", "RL_RATE": "2"})
		ok := exchange(t, cfg, answerer(t, 200, nil, "ok"))
		s, p := keyedSteps(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
		s.Key.Runs = [][]*httpclient.Exchange{{ok}}
		s.Last.Ex = exchange(t, cfg, answerer(t, 429, map[string]string{"Retry-After": "1"}, "slow down"))
		step := on(p, "every response carried Limit B, Remaining the whole tokens left, and Reset within ⌈B/R⌉ + 1 seconds")
		if profile == "sliding-log" {
			step = on(p, "every response carried Limit N, Remaining N minus the allowed requests, and Reset at the oldest allowed request plus W")
		}
		err := step()
		if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "DIALECT=status") {
			t.Errorf("%s: header clause under DIALECT=status: %v, want SKIPPED naming the dialect", profile, err)
		}
	}
}

// Issue 24, false verdict 2: a valid Retry-After is read on its own,
// whatever the X-RateLimit-* headers (absent here) say: SL-6 and TB-6
// pass a 429 with `Retry-After: 3` and nothing else, and an HTTP-date.
func TestRetryAfterReadOnItsOwn(t *testing.T) {
	for _, ra := range []string{"3", time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)} {
		for _, profile := range []string{"sliding-log", "token-bucket"} {
			cfg := configFrom(t, map[string]string{"PROFILE": profile, "RL_LIMIT": "5", "RL_WINDOW": "5", "RL_BURST": "5", "RL_RATE": "0.5", "LIMITED_BODY": "/error/code=RATE_LIMITED"})
			s, p := keyedSteps(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
			s.Last.Ex = exchange(t, cfg, answerer(t, 429, map[string]string{"Retry-After": ra}, `{"error":{"code":"RATE_LIMITED"}}`))
			step := on(p, "the 429 has Retry-After in [1, W] and a body matching LIMITED_BODY")
			if profile == "token-bucket" {
				step = on(p, "the 429 has Retry-After in [1, ⌈1/R⌉ + 1] and a body matching LIMITED_BODY")
			}
			if err := step(); err != nil {
				t.Errorf("%s, Retry-After: %s alone: %v", profile, ra, err)
			}
		}
	}
}

// Issue 24, false verdict 3: LIMITED_BODY=none switches sliding-log's body
// check off (a plain-text 429 passes SL-6), and text:<regexp> checks a text
// body.
func TestLimitedBodyNoneAndText(t *testing.T) {
	url := answerer(t, 429, map[string]string{"Retry-After": "2", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
		"X-RateLimit-Reset": strconv.FormatInt(time.Now().Unix()+2, 10)}, "Too Many Requests\n")
	for body, pass := range map[string]bool{"none": true, "text:(?i)too many": true, "text:^slow": false} {
		cfg := configFrom(t, map[string]string{"PROFILE": "sliding-log", "RL_LIMIT": "5", "RL_WINDOW": "5", "LIMITED_BODY": body})
		s, p := keyedSteps(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
		s.Last.Ex = exchange(t, cfg, url)
		if err := p.Run("the 429 has Retry-After in [1, W] and a body matching LIMITED_BODY"); (err == nil) != pass {
			t.Errorf("LIMITED_BODY=%s on a text 429: %v, want pass %v", body, err, pass)
		}
	}
}

// A step that only waits for Retry-After (SL-4's second sentence) skips
// when the 429 has none to read, naming why: the header deviation is the
// 429 clause's verdict, not the algorithm's (issue 24 item 13).
func TestWaitingStepSkipsWithoutRetryAfter(t *testing.T) {
	cfg := configFrom(t, map[string]string{"PROFILE": "sliding-log", "RL_LIMIT": "5", "RL_WINDOW": "5"})
	for ra, why := range map[string]string{"": "Retry-After is missing", "soon": "neither delay-seconds nor an HTTP-date"} {
		h := map[string]string{}
		if ra != "" {
			h["Retry-After"] = ra
		}
		s, p := keyedSteps(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
		s.Last.Ex = exchange(t, cfg, answerer(t, 429, h, `{"error":{"code":"RATE_LIMITED"}}`))
		if err := p.Run("a request sent once Retry-After plus 1 second has passed is allowed"); !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), why) {
			t.Errorf("Retry-After %q: %v, want a skip saying %q", ra, err, why)
		}
	}
}
