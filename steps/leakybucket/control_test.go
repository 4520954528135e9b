package leakybucket

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// A late answer counts against the limiter only where the machine was
// shown to answer promptly beside it (a control) and rlspec itself ran
// while it was awaited; otherwise its verdict rests on a broken
// assumption, and the scenario is run again, then skipped.
func TestLateAnswerNeedsAPromptMachine(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
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
