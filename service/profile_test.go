package service

import (
	"slices"
	"testing"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

func TestProfileDefaults(t *testing.T) {
	c, err := parse(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile != profile.PRD {
		t.Fatalf("default profile %q", c.Profile)
	}
	for p, want := range map[profile.Name]struct {
		key, method string
		dialect     dialect.Dialect
		body        string
		features    []profile.Feature
	}{
		profile.PRD:         {"body:device_bucket", "POST", dialect.XRateLimit, "/error=rate_limited", []profile.Feature{profile.FailClosed}},
		profile.SlidingLog:  {"header:X-User-ID", "GET", dialect.Auto, "/error/code=RATE_LIMITED", []profile.Feature{}},
		profile.FixedWindow: {"header:X-User-ID", "GET", dialect.Auto, "none", []profile.Feature{}},
		profile.TokenBucket: {"header:X-User-ID", "GET", dialect.Auto, "none", []profile.Feature{}},
	} {
		got := c.ForProfile(p)
		if got.Key.String() != want.key || got.Method != want.method || got.Dialect != want.dialect ||
			got.LimitedBody.String() != want.body || !slices.Equal(got.Features, want.features) && len(got.Features)+len(want.features) > 0 {
			t.Errorf("%s: got key %s method %s dialect %q body %q features %v", p, got.Key, got.Method, got.Dialect, got.LimitedBody, got.Features)
		}
		if k, _ := got.RenderKey("abc"); k != "abc" {
			t.Errorf("%s: default KEY_FORMAT renders %q", p, k)
		}
	}
	if a := c.ForProfile(profile.FixedWindow).WindowAlign; a != profile.AlignEpoch {
		t.Errorf("fixed-window default WINDOW_ALIGN %q", a)
	}
}

func TestProfileSettingsFromEnvironmentAndFlags(t *testing.T) {
	env := map[string]string{
		"PROFILE": "fixed-window", "FEATURES": "anonymous-open, fail-open", "KEY": "header:Authorization",
		"KEY_FORMAT": "Bearer test-{{.Key}}", "TARGET_METHOD": "post", "WINDOW_ALIGN": "first-request",
		"DIALECT": "status", "LIMITED_BODY": "/error=Rate limit exceeded|rate_limited",
	}
	c, err := parse(t, env, "-dialect", "x-ratelimit")
	if err != nil {
		t.Fatal(err)
	}
	c = c.ForProfile(c.Profile)
	if c.Profile != profile.FixedWindow || !c.Claims(profile.AnonymousOpen) || !c.Claims(profile.FailOpen) || c.Claims(profile.Tiers) ||
		c.Key != (Key{KeyHeader, "Authorization"}) || c.Method != "POST" || c.WindowAlign != profile.AlignFirstRequest ||
		c.Dialect != dialect.XRateLimit || c.LimitedBody.Pointer != "/error" || !slices.Equal(c.LimitedBody.Values, []string{"Rate limit exceeded", "rate_limited"}) {
		t.Fatalf("got %+v", c)
	}
	if k, err := c.RenderKey("u1"); err != nil || k != "Bearer test-u1" {
		t.Fatalf("RenderKey = %q, %v", k, err)
	}
	if c, err := parse(t, map[string]string{"PROFILE": "sliding-log", "FEATURES": ""}); err != nil || c.ForProfile(c.Profile).Features == nil {
		t.Fatalf("FEATURES= must claim none: %v %v", c.Features, err)
	}
	if c, err := parse(t, map[string]string{"KEY": "ip", "PROFILE": "token-bucket"}); err != nil || c.Key.Kind != KeyIP {
		t.Fatalf("KEY=ip: %+v %v", c.Key, err)
	}
}

func TestProfileRejectsBadSettings(t *testing.T) {
	checkRejected(t, map[string]rejection{
		"profile":       {map[string]string{"PROFILE": "gcra-queue"}, "PROFILE"},
		"feature":       {map[string]string{"PROFILE": "sliding-log", "FEATURES": "teleport"}, `"teleport" is not a feature`},
		"fw-only":       {map[string]string{"PROFILE": "sliding-log", "FEATURES": "anonymous-open"}, "anonymous-open"},
		"key":           {map[string]string{"KEY": "cookie:x"}, "KEY"},
		"key-empty":     {map[string]string{"KEY": "header:"}, "KEY"},
		"align":         {map[string]string{"WINDOW_ALIGN": "monday"}, "WINDOW_ALIGN"},
		"dialect":       {map[string]string{"DIALECT": "smoke"}, "DIALECT"},
		"body":          {map[string]string{"LIMITED_BODY": "error=x"}, "LIMITED_BODY"},
		"method":        {map[string]string{"TARGET_METHOD": "G E T"}, "TARGET_METHOD"},
		"template":      {map[string]string{"PROFILE": "sliding-log", "KEY_FORMAT": "{{.Nope"}, "KEY_FORMAT"},
		"template-key":  {map[string]string{"PROFILE": "sliding-log", "KEY_FORMAT": "{{.User}}"}, "KEY_FORMAT"},
		"prd-key":       {map[string]string{"KEY": "header:X-User-ID"}, "KEY does not apply to PROFILE=prd"},
		"sl-align":      {map[string]string{"PROFILE": "sliding-log", "WINDOW_ALIGN": "epoch"}, "WINDOW_ALIGN does not apply to PROFILE=sliding-log"},
		"prd-dialect":   {map[string]string{"DIALECT": "status"}, "DIALECT does not apply"},
		"tb-align":      {map[string]string{"PROFILE": "token-bucket", "WINDOW_ALIGN": "epoch"}, "WINDOW_ALIGN does not apply"},
		"prd-anonymous": {map[string]string{"FEATURES": "anonymous-open"}, "anonymous-open"},
	})
}

func TestOnlyClearsWhatAProfileDoesNotTake(t *testing.T) {
	c, err := parse(t, map[string]string{"PROFILE": "all", "WINDOW_ALIGN": "first-request", "KEY": "header:X-Team",
		"FEATURES": "anonymous-open,fail-open", "LIMITED_BODY": "/error/code=X"})
	if err != nil {
		t.Fatal(err)
	}
	prd := c.Only(profile.PRD)
	if prd.Profile != profile.PRD || prd.WindowAlign != "" || prd.Key != (Key{}) || prd.LimitedBody.Kind != dialect.BodyUnset ||
		!slices.Equal(prd.Features, []profile.Feature{profile.FailOpen}) {
		t.Fatalf("prd: %+v", prd)
	}
	if err := prd.Validate(); err != nil {
		t.Fatalf("prd's share of PROFILE=all does not validate: %v", err)
	}
	fw := c.Only(profile.FixedWindow)
	if fw.WindowAlign != profile.AlignFirstRequest || fw.Key.Name != "X-Team" || !fw.Claims(profile.AnonymousOpen) {
		t.Fatalf("fixed-window: %+v", fw)
	}
	if sl := c.Only(profile.SlidingLog); sl.WindowAlign != "" || sl.Claims(profile.AnonymousOpen) || sl.Validate() != nil {
		t.Fatalf("sliding-log: %+v %v", sl, sl.Validate())
	}
}
