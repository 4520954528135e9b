package leakybucket

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// A late answer counts against the limiter only where the machine was
// shown to answer promptly beside it (a control) and rlspec itself ran
// while it was awaited; otherwise its verdict rests on a broken
// assumption, and the scenario is run again, then skipped.
func TestLateAnswerNeedsAPromptMachine(t *testing.T) {
	late := &httpclient.Exchange{Sent: ms(0), Received: ms(1800)} // 800 ms past 1 s
	for _, c := range []struct {
		name    string
		control *httpclient.Exchange
		lost    time.Duration
		broken  string // "" when the violation stands
	}{
		{"prompt control, rlspec ran", &httpclient.Exchange{Sent: ms(2), Received: ms(30)}, 0, ""},
		{"rlspec stalled a little", &httpclient.Exchange{Sent: ms(2), Received: ms(30)}, 300 * time.Millisecond, ""},
		{"slow control", &httpclient.Exchange{Sent: ms(2), Received: ms(900)}, 0, "slow to answer anything"},
		{"control sent after the answer", &httpclient.Exchange{Sent: ms(1900), Received: ms(1910)}, 0, "not while the slow answer"},
		{"no control", nil, 0, "no control request"},
		{"rlspec stalled longer than the lateness", &httpclient.Exchange{Sent: ms(2), Received: ms(30)}, 900 * time.Millisecond, "rlspec itself could not run for 900ms"},
	} {
		env := &scenario.Env{Stalls: func(from, to time.Time) time.Duration { return c.lost }}
		s := &state{World: keyed.New(scenario.New(context.Background(), env)), control: c.control}
		s.assumePrompt(late)
		s.assumeRan(late, late.Received.Sub(late.Sent)-time.Second)
		got := s.Broken()
		if c.broken == "" && got != "" || c.broken != "" && !strings.Contains(got, c.broken) {
			t.Errorf("%s: broken %q, want %q", c.name, got, c.broken)
		}
	}
}

// LB-3 passes only on a burst that went out together: under nodelay (B 5,
// R 2/s) a queue delaying each request its turn shows only where the
// sends spread over less than (B − 1)/R − 1 s = 1 s. A wider burst's pass
// is no verdict; a late answer is one, however the burst went out.
func TestQueuedAnswersPassOnlyOnATightBurst(t *testing.T) {
	cfg := service.DefaultConfig().WithTokenBucketDefaults()
	cfg.LBMode = service.LBModeNoDelay
	for _, c := range []struct {
		name      string
		spread    int // ms between the first and the last send
		answerMs  int // each answer's latency
		violation bool
		broken    string
	}{
		{"tight burst, prompt answers", 20, 30, false, ""},
		{"burst spread over 1.2 s, prompt answers", 1200, 30, false, "sends spread over 1.2s"},
		{"burst spread over 1.2 s, a late answer", 1200, 1600, true, ""},
	} {
		var exs []*httpclient.Exchange
		for i := range cfg.Burst + 1 {
			sent := ms(i * c.spread / cfg.Burst)
			exs = append(exs, &httpclient.Exchange{Status: 200, Sent: sent, Received: sent.Add(time.Duration(c.answerMs) * time.Millisecond)})
		}
		env := &scenario.Env{Config: cfg, Stalls: func(from, to time.Time) time.Duration { return 0 }}
		s := &state{World: keyed.New(scenario.New(context.Background(), env))}
		s.Batch = scenario.Batch{Exchanges: exs, Sent: len(exs)}
		err := s.noOverDelay()
		if err != nil {
			s.Fail(err)
		}
		if (err != nil) != c.violation {
			t.Errorf("%s: verdict %v, want a violation %v", c.name, err, c.violation)
		}
		if got := s.Broken(); c.broken == "" && got != "" || c.broken != "" && !strings.Contains(got, c.broken) {
			t.Errorf("%s: broken %q, want %q", c.name, got, c.broken)
		}
	}
}
