package bound

import (
	"slices"
	"time"
)

// limiter decides requests in decision-time order, as a server would; the
// tests place each decision inside its exchange and hand the checker only
// what the harness sees.
type limiter interface {
	allow(key string, at int64) bool
}

// slidingLog is a correct sliding-window log on a clock of the given
// granularity (time.Second for whole-second servers).
type slidingLog struct {
	n    int
	w    int64
	gran int64
	log  map[string][]int64
}

func (l *slidingLog) allow(key string, at int64) bool {
	now := at - at%l.gran
	kept := l.log[key][:0]
	for _, t := range l.log[key] {
		if t > now-l.w {
			kept = append(kept, t)
		}
	}
	l.log[key] = kept
	if len(kept) >= l.n {
		return false
	}
	l.log[key] = append(kept, now)
	return true
}

// epochWindow is a correct fixed window aligned to the epoch.
type epochWindow struct {
	n     int
	w     int64
	gran  int64
	count map[string]map[int64]int
}

func (l *epochWindow) allow(key string, at int64) bool {
	now := at - at%l.gran
	k := now / l.w
	if l.count[key] == nil {
		l.count[key] = map[int64]int{}
	}
	if l.count[key][k] >= l.n {
		return false
	}
	l.count[key][k]++
	return true
}

// firstRequest is a correct fixed window opened by the first request after
// the previous window ended.
type firstRequest struct {
	n     int
	w     int64
	gran  int64
	start map[string]int64
	used  map[string]int
}

func (l *firstRequest) allow(key string, at int64) bool {
	now := at - at%l.gran
	if s, ok := l.start[key]; !ok || now >= s+l.w {
		l.start[key], l.used[key] = now, 0
	}
	if l.used[key] >= l.n {
		return false
	}
	l.used[key]++
	return true
}

// overAllow lets one extra request through per key: the fault every bound
// check must catch when the exchanges are tight.
type overAllow struct {
	limiter
	extra map[string]bool
}

func (l *overAllow) allow(key string, at int64) bool {
	if l.limiter.allow(key, at) {
		return true
	}
	if !l.extra[key] {
		l.extra[key] = true
		return true
	}
	return false
}

// exchange is a request as the test generates it: when it was sent, when
// answered, and where inside that the server decided.
type exchange struct {
	key              string
	send, recv, decd int64
}

// run decides the exchanges in decision order and returns what the harness
// records.
func run(l limiter, xs []exchange) []Event {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp64(xs[a].decd, xs[b].decd) })
	out := make([]Event, len(xs))
	for _, i := range order {
		x := xs[i]
		out[i] = Event{ID: i, Key: x.key, Send: x.send, Recv: x.recv, Allowed: l.allow(x.key, x.decd)}
	}
	return out
}

var epoch = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixNano()

// tokenBucket is a correct token bucket: burst tokens, refilled
// continuously at rate per second, capped at burst. uncapped is the fault
// "tokens not capped after a long idle".
type tokenBucket struct {
	burst    float64
	rate     float64
	gran     int64
	uncapped bool
	tokens   map[string]float64
	last     map[string]int64
}

func (l *tokenBucket) allow(key string, at int64) bool {
	now := at - at%l.gran
	tok, seen := l.tokens[key]
	if !seen {
		tok, l.last[key] = l.burst, now
	}
	if now > l.last[key] {
		tok += l.rate * float64(now-l.last[key]) / 1e9
		l.last[key] = now
	}
	if !l.uncapped && tok > l.burst {
		tok = l.burst
	}
	ok := tok >= 1
	if ok {
		tok--
	}
	l.tokens[key] = tok
	return ok
}
