package preflight

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// startService starts a reference at limit per window with fault f (and an
// optional handler wrapper) and returns its URL.
func startService(t *testing.T, limit int, window time.Duration, f fault.Name, handler func(http.Handler) http.Handler) string {
	t.Helper()
	return faulttest.Start(t, f, func(cfg *fakeserver.Config) {
		cfg.Limit, cfg.Window = limit, window
		if handler != nil {
			cfg.Wrap.Handler = handler
		}
	})
}

// Matching settings pass the check, and so do services whose headers are
// wrong in a way the scenarios must catch (off-by-one Remaining, a Limit
// header that lies, a Reset that slides): those are failures, not exit 2.
func TestSettingsCheckLeavesFaultsToTheScenarios(t *testing.T) {
	lieLimit := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(dialect.HeaderLimit, "7")
			h.ServeHTTP(&fixedLimit{ResponseWriter: w}, r)
		})
	}
	for _, c := range []struct {
		name    string
		f       fault.Name
		handler func(http.Handler) http.Handler
	}{
		{"reference", fault.None, nil},
		{"off-by-one", prd.OffByOneName, nil},
		{"sliding-reset", prd.SlidingResetName, nil},
		{"limit header lies", fault.None, lieLimit},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig()
			tc.Limit, tc.Window = 20, 3*time.Second
			tc.URL = startService(t, tc.Limit, tc.Window, c.f, c.handler)
			body, err := bodytmpl.Load("")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := CheckSettings(context.Background(), tc, dialect.Settings{}, body, 5*time.Second); err != nil {
				t.Errorf("CheckSettings: %v", err)
			}
		})
	}
}

// An explicit dialect setting the target's first answer contradicts is one
// sentence (exit 2) before any scenario; auto says what it detected and
// from which line.
func TestDialectSettingsCheckedAgainstTheFirstAnswer(t *testing.T) {
	tc := service.DefaultConfig()
	tc.Limit, tc.Window = 20, 3*time.Second
	tc.URL = startService(t, tc.Limit, tc.Window, fault.None, nil)
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		explicit dialect.Settings
		want     string
	}{
		{dialect.Settings{Dialect: dialect.IETF}, "DIALECT=ietf but the first response of a fresh key answers in x-ratelimit (`X-RateLimit-Reset: "},
		{dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetDelta}, "RESET_FORMAT=delta but the first response of a fresh key carries `X-RateLimit-Reset: "},
		{dialect.Settings{Dialect: dialect.XRateLimit, Prefix: "X-Rate-Limit-"}, "HEADER_PREFIX=X-Rate-Limit- but the first response of a fresh key carries `X-RateLimit-Reset: "},
	} {
		_, err := CheckSettings(context.Background(), tc, c.explicit, body, 5*time.Second)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !strings.HasSuffix(err.Error(), "`rlspec probe` reads every setting the target's answers show") {
			t.Errorf("%+v: %v, want %q…", c.explicit, err, c.want)
		}
	}
	auto := tc
	auto.Dialect, auto.ResetFormat = dialect.Auto, dialect.ResetAuto
	det, err := CheckSettings(context.Background(), auto, dialect.Settings{Dialect: dialect.Auto}, body, 5*time.Second)
	if s := det.Sentence("the first response"); err != nil || !strings.HasPrefix(s, "dialect: x-ratelimit, Reset as unix seconds — detected from `X-RateLimit-Reset: ") {
		t.Errorf("auto: %q, %v", s, err)
	}
}

// fixedLimit keeps the X-RateLimit-Limit header its wrapper set.
type fixedLimit struct{ http.ResponseWriter }

func (w *fixedLimit) WriteHeader(status int) {
	w.Header().Set(dialect.HeaderLimit, "7")
	w.ResponseWriter.WriteHeader(status)
}

func (w *fixedLimit) Write(b []byte) (int, error) { return w.ResponseWriter.Write(b) }

// A template that renders the same body twice gets a note saying AC6-03
// cannot run and how to fix it; the default template does not.
func TestBodyNoteOnConstantTemplate(t *testing.T) {
	constant, err := bodytmpl.New(`{"route_id":"335E","submitted_at":"{{now}}"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	note, err := BodyNote(constant)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"AC6-03", "{{uuid}}"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	def, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	if note, err := BodyNote(def); err != nil || note != "" {
		t.Errorf("default template: note %q, err %v", note, err)
	}
}

// A token-bucket service whose B or R contradicts RL_BURST / RL_RATE, or a
// leaky-bucket service whose queue contradicts RL_BURST, cannot run: one
// sentence naming the setting; matching settings (and, for the queue, an
// unknown RL_BURST) pass.
func TestBucketSettingsCheck(t *testing.T) {
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		design        profile.Name
		burst, tBurst int
		rate, tRate   float64
		want          string
	}{
		{"match", profile.TokenBucket, 5, 5, 2, 2, ""},
		{"burst", profile.TokenBucket, 8, 5, 2, 2, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 on the first request of a fresh key; set RL_BURST=8"},
		{"rate", profile.TokenBucket, 5, 5, 0.1, 2, "RL_RATE=2 but the service answers X-RateLimit-Reset: "},
		{"queue match", profile.LeakyBucket, 5, 5, 2, 2, ""},
		{"queue unknown", profile.LeakyBucket, 5, 0, 2, 2, ""},
		{"queue burst", profile.LeakyBucket, 7, 5, 2, 2, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 (B + 1) on the first request of an idle key; set RL_BURST=7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig().ForProfile(c.design)
			tc.Burst, tc.Rate = c.tBurst, c.tRate
			tc.URL = faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) {
				cfg.Profile, cfg.Burst, cfg.Rate = c.design, c.burst, c.rate
			})
			_, err := CheckSettings(context.Background(), tc, dialect.Settings{}, body, 5*time.Second)
			if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
				t.Fatalf("CheckSettings: %v, want %q…", err, c.want)
			}
		})
	}
}
