package probe

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// Setting is one variable of the suggested command and why it has its
// value.
type Setting struct {
	Name, Value, Why string
}

// Suggestion is the settings of an acceptance run that fit what the probe
// saw, and what it could not tell. Profile is the design suggested (or the
// one given); Guessed says the probe chose it.
type Suggestion struct {
	Profile  profile.Name
	Guessed  bool
	Settings []Setting
	Unknown  []string
}

func (g *Suggestion) set(name, value, why string, a ...any) {
	g.Settings = append(g.Settings, Setting{Name: name, Value: value, Why: fmt.Sprintf(why, a...)})
}

func (g *Suggestion) unknown(format string, a ...any) {
	g.Unknown = append(g.Unknown, fmt.Sprintf(format, a...))
}

// Unguessed is the profile whose requests the probe sends before it has
// guessed one: a generic profile's (KEY, TARGET_METHOD) that takes every
// alignment.
const Unguessed = profile.FixedWindow

// Suggest turns a session's findings into settings. given is PROFILE when
// the user named it ("" lets the probe choose among the generic
// profiles).
func Suggest(s *Session, given profile.Name) (g Suggestion) {
	f := &s.F
	g = Suggestion{Profile: given}
	defer func() { g.Unknown = append(append([]string(nil), f.Unknown...), g.Unknown...) }()
	design := s.design()
	if given == "" {
		g.Profile, g.Guessed = design.profile, true
		g.set("PROFILE", string(design.profile), "%s", design.why)
	} else {
		g.set("PROFILE", string(given), "as given")
	}
	n := f.LimitHeader
	nWhy := "the Limit field"
	if n == 0 {
		n, nWhy = int64(f.Allowed), fmt.Sprintf("%d allowed on a fresh key before the first refusal", f.Allowed)
		if f.Refusal == nil {
			nWhy = fmt.Sprintf("a placeholder: all %d requests on one key were allowed, so the limit is higher", f.Allowed)
		}
	}
	switch g.Profile {
	case profile.LeakyBucket:
		s.leakySettings(&g, n)
	case profile.TokenBucket:
		g.set("RL_BURST", strconv.FormatInt(n, 10), "%s", nWhy)
		if r, why := s.rate(n); r > 0 {
			g.set("RL_RATE", formatRate(r), "%s", why)
			if n > 1 {
				g.unknown("a token bucket or a leaky bucket answering at once: a leaky bucket in LB_MODE=nodelay with a queue of B − 1 answers as a token bucket of B (profiles.md checks it with the token-bucket clauses), so PROFILE=leaky-bucket RL_BURST=%d RL_RATE=%s LB_MODE=nodelay is the same claim; no answer tells them apart", n-1, formatRate(r))
			}
		} else {
			g.set("RL_RATE", "1", "a placeholder: %s", why)
		}
	default:
		g.set("RL_LIMIT", strconv.FormatInt(n, 10), "%s", nWhy)
		w, why := s.window(design.align, &g)
		g.set("RL_WINDOW", fmt.Sprintf("%ds", int64(w/time.Second)), "%s", why)
		if g.Profile == profile.FixedWindow {
			g.set("WINDOW_ALIGN", string(design.align), "%s", design.alignWhy)
		}
	}
	if d := slowest(s.Seen); d > time.Second && f.Queue == nil {
		g.unknown("whether excess is delayed rather than refused: an allowed answer took %s (a leaky bucket in LB_MODE=delay holds excess back; PROFILE=leaky-bucket)", d.Round(100*time.Millisecond))
	}
	if g.Profile == profile.PRD {
		g.unknown("the flag-off clause (AC8): it needs a second instance started with BMTC_RATE_LIMIT_ENABLED=false, given as TARGET_URL_DISABLED")
		return g
	}
	s.answerSettings(&g)
	switch f.Keying {
	case KeyedByAddress:
		g.set("KEY", "ip", "%s", f.KeyingHow)
	case KeyedShared:
		g.unknown("per-client keys: %s — one quota for every client; rlspec's profiles verify per-client quotas", f.KeyingHow)
	}
	if g.Profile == profile.SlidingWindowCounter {
		g.unknown("whether refused requests are counted (FEATURES=counts-refused, as HAProxy's and Fiber's counters do): they weigh on the next window like allowed ones, which the probe's few refusals do not show apart from the weighting itself")
	}
	if sp := f.Spread; sp != nil && sp.Elastic() {
		moved := "the answers carry no Reset to show it"
		if sp.Moved > 0 {
			moved = fmt.Sprintf("the Reset of the requests sent half a window later lay %s after the first one's", sp.Moved)
		}
		g.unknown("a design rlspec has no profile for: nothing came back once the first request's window had passed although none of the key's requests was refused, so each request seems to extend the window's end (an elastic expiry; %s). Neither a sliding log (its first request's place comes back) nor a fixed window (its whole limit does); PROFILE=fixed-window is the nearest, and its checks fail where a request lands in a window that a fixed one would have closed", moved)
	}
	if design.profile == profile.FixedWindow && design.align == profile.AlignFirstRequest && f.Spread == nil && f.Refusal != nil {
		w, _ := s.window(design.align, nil)
		g.unknown("whether this is a sliding log (PROFILE=sliding-log, a stronger claim) or a fixed window opened by the first request: both answer a burst alike; telling them needs about %s of waiting (MAX_WAIT of at least %s) and up to %d requests: one request, the rest of the limit half a window later, then what is allowed once the first has left",
			(w + time.Second).Round(time.Second), (w/2 + time.Second).Round(time.Second), 2*n+2)
	}
	return g
}

// answerSettings are how the target answers: DIALECT and its format, the
// refusal's status and body.
func (s *Session) answerSettings(g *Suggestion) {
	f := &s.F
	a := f.Detection.Settings
	why := "the answers carry no rate-limit fields"
	if f.Detection.Line != "" {
		why = "detected from `" + f.Detection.Line + "`"
	}
	if !f.Detection.Detected {
		why = "as given"
	}
	g.set("DIALECT", string(a.Dialect), "%s", why)
	if a.Dialect == dialect.XRateLimit {
		if a.ResetFormat.Concrete() {
			g.set("RESET_FORMAT", string(a.ResetFormat), "Reset is written as %s", a.ResetFormat.Describe())
		}
		if a.Prefix != "" && a.Prefix != dialect.DefaultPrefix {
			g.set("HEADER_PREFIX", a.Prefix, "the fields' prefix")
		}
	}
	if f.Refusal == nil {
		g.unknown("the refusal's status and body (LIMITED_STATUS, LIMITED_BODY): no refusal was seen")
		return
	}
	g.set("LIMITED_STATUS", strconv.Itoa(f.Refusal.Ex.Status), "the status of the first refusal")
	b, why := refusalBody(f.Refusal.Ex.RespBody)
	g.set("LIMITED_BODY", b.String(), "%s", why)
}

// design is the profile the findings fit best, with the reason, and for
// a fixed window its alignment.
type design struct {
	profile  profile.Name
	why      string
	align    profile.Align
	alignWhy string
	epochW   time.Duration
}

func (s *Session) design() design {
	f := &s.F
	d := design{profile: profile.FixedWindow, why: "a burst on a fresh key was refused after a fixed count", align: profile.AlignFirstRequest,
		alignWhy: "the first answer's Reset lies one window ahead"}
	if f.Refusal == nil {
		d.why = "a placeholder: nothing was refused, so the design does not show"
		d.alignWhy = "a placeholder: nothing was refused"
		return d
	}
	if f.Queue != nil {
		d.profile = profile.LeakyBucket
		d.why = fmt.Sprintf("answers on one key came back late (%s) instead of being refused: excess waits in a queue", durations(f.Delays))
		return d
	}
	if _, ok := resetIn(f.First); !ok {
		d.alignWhy = "the answers carry no Reset: a guess"
	}
	if f.counter() {
		d.profile, d.why = profile.SlidingWindowCounter, f.counterWhy()
		if _, ok := s.epochWindow(); ok {
			d.align = profile.AlignEpoch
		}
		return d
	}
	if r := f.Refilled; r != nil && !r.Partial && r.Allowed > 0 && r.Allowed < f.Allowed {
		d.profile = profile.TokenBucket
		d.why = fmt.Sprintf("%s after the refusal %d of %d came back: a token at a time", r.Elapsed.Round(100*time.Millisecond), r.Allowed, f.Allowed)
		return d
	}
	if f.Refusal != nil && f.Refusal.Obs.Has(dialect.FieldRetryAfter) {
		if in, ok := resetIn(f.Refusal); ok && time.Duration(in)*time.Second > f.Refusal.Obs.RetryAfter+time.Second {
			d.profile = profile.TokenBucket
			d.why = fmt.Sprintf("the refusal's Retry-After (%s) comes well before its Reset (%ds): one token back before the whole burst", f.Refusal.Obs.RetryAfter, in)
			return d
		}
	}
	if w, ok := s.epochWindow(); ok {
		d.align, d.epochW = profile.AlignEpoch, w
		d.alignWhy = fmt.Sprintf("a fresh key's first Reset lay on a grid of %s in unix time, less than a window ahead", w)
		return d
	}
	if sp := f.Spread; sp != nil {
		n := f.Allowed
		switch {
		case sp.Elastic():
			d.why = "nothing came back once the first of the requests spread over a window had left, though none was refused: a fixed window whose end each request moves (no profile describes it; see what the probe could not tell)"
			d.alignWhy = "a window opened by a key's first request, whose end the later requests extend"
		case sp.After <= n/2:
			d.profile, d.why = profile.SlidingLog, fmt.Sprintf("once the first of %d requests spread over a window had left, %d was allowed again, not a new window's %d", n, sp.After, n)
		default:
			d.alignWhy = fmt.Sprintf("the first answer's Reset lies one window ahead, and once the window of requests spread over it had passed, %d were allowed again: a new window", sp.After)
		}
	}
	return d
}

// epochWindow is W when the windows lie on a grid of W in unix time: W
// the answers name (RateLimit-Policy) or the distance between the refused
// key's Reset before and after its refill, with a fresh key's first Reset
// on that grid and less than a window ahead (a window opened by the first
// request lies a whole window ahead).
func (s *Session) epochWindow() (time.Duration, bool) {
	f := &s.F
	w := int64(s.policyWindow() / time.Second)
	if r1, ok := unixReset(f.First); ok && w == 0 && f.Refilled != nil && f.Refilled.First != nil {
		if r2, ok := unixReset(f.Refilled.First); ok {
			w = r2 - r1
		}
	}
	if w < 3 {
		return 0, false
	}
	seen := map[string]bool{}
	for _, sn := range s.Seen {
		if seen[sn.Key] || sn.Key == "" {
			continue
		}
		seen[sn.Key] = true
		r, ok := unixReset(&sn)
		in, _ := resetIn(&sn)
		if m := r % w; ok && sn.Allowed() && in <= w-2 && (m <= 1 || m >= w-1) {
			return time.Duration(w) * time.Second, true
		}
	}
	return 0, false
}

// policyWindow is the window a RateLimit-Policy names, 0 when none does.
func (s *Session) policyWindow() time.Duration {
	for _, sn := range s.Seen {
		if sn.Obs.Has(dialect.FieldPolicy) && sn.Obs.Window > 0 {
			return sn.Obs.Window
		}
	}
	return 0
}

// windowAhead is how many whole seconds ahead a fresh key's first Reset
// lies, read as a window: the Reset is a whole second, so the distance
// from the answer is W rounded down or up; of the two the rounder (a
// multiple of 60, 30, 10, 5, 2) is taken, the larger on a tie.
func windowAhead(sn *Seen) (int64, bool) {
	if sn == nil || !sn.Obs.Has(dialect.FieldReset) || sn.Obs.Err != nil {
		return 0, false
	}
	d := sn.Obs.Reset.Sub(sn.Ex.Received)
	lo := int64(d / time.Second)
	if d%time.Second == 0 {
		return lo, true
	}
	if roundness(lo) > roundness(lo+1) {
		return lo, true
	}
	return lo + 1, true
}

func roundness(n int64) int {
	for i, m := range []int64{60, 30, 10, 5, 2} {
		if n > 0 && n%m == 0 {
			return 5 - i
		}
	}
	return 0
}

func unixReset(s *Seen) (int64, bool) {
	if s == nil || !s.Obs.Has(dialect.FieldReset) || s.Obs.Err != nil {
		return 0, false
	}
	return s.Obs.Reset.Round(time.Second).Unix(), true
}

// window is W as the answers show it: a policy's window, the grid seen
// after a refill, or how far the fresh key's first Reset lies ahead.
func (s *Session) window(align profile.Align, g *Suggestion) (time.Duration, string) {
	note := func(format string, a ...any) {
		if g != nil {
			g.unknown(format, a...)
		}
	}
	f := &s.F
	if w := s.policyWindow(); w > 0 {
		return w, "the window the answers' RateLimit-Policy names (w)"
	}
	if align == profile.AlignEpoch {
		if w, ok := s.epochWindow(); ok {
			return w, "the distance between two successive windows' Reset"
		}
	}
	if in, ok := windowAhead(f.First); ok && in > 0 {
		if r := f.Reopen; r != nil && !f.counter() {
			if r.Allowed {
				return time.Duration(r.Lo) * time.Second, r.why()
			}
			return time.Duration(r.Lo+1) * time.Second, r.why()
		}
		if f.Refilled == nil {
			note("the window's length for certain: %ds is how far the first answer's Reset lay ahead, W itself when windows open with the first request; on a grid shared by all keys W may be longer, which waiting %ds tells", in, in+1)
		}
		return time.Duration(in) * time.Second, "how far a fresh key's first Reset lies ahead"
	}
	if f.Refusal != nil {
		if back := f.comesBack(); back > 0 {
			w := time.Duration(dialect.Seconds(back)) * time.Second
			note("the window's length: the answers carry no Reset; %s is the refusal's Retry-After, a lower bound (watching a key's quota come back tells W)", w)
			return w, "the refusal's Retry-After (a lower bound)"
		}
	}
	if r := f.Refilled; r != nil && r.Polled && !r.Partial && (r.Allowed >= f.Allowed || f.counter()) && f.First != nil {
		if f.counter() {
			note("the window's length: with the status only, W is when part of the limit came back after the first request — exact where a key's windows start at its first request and refused requests are not counted; on a grid shared by all keys W may be longer, and where refused requests count (FEATURES=counts-refused) the probe's tries once a second delay the return, so W may be shorter (a multiple of it)")
		}
		lo, hi := r.StillRefused.Sub(f.First.Ex.Received), r.First.Ex.Received.Sub(f.First.Ex.Sent)
		w := min(time.Duration(math.Floor(lo.Seconds())+1)*time.Second, hi.Round(time.Second))
		what := "the whole quota"
		if f.counter() {
			what = "part of the quota"
		}
		note("the exact window: %s came back between %s and %s after the first request (tried once a second); %s is the whole second in between", what, lo.Round(100*time.Millisecond), hi.Round(100*time.Millisecond), w)
		return w, "the refused key's whole quota came back between two tries a second apart"
	}
	note("the window's length: the answers show none; RL_WINDOW is a placeholder")
	return time.Minute, "a placeholder: the answers show no window"
}

// slowest is the longest an allowed answer took.
func slowest(seen []Seen) time.Duration {
	var d time.Duration
	for _, sn := range seen {
		if sn.Allowed() {
			d = max(d, sn.Ex.Received.Sub(sn.Ex.Sent))
		}
	}
	return d
}
