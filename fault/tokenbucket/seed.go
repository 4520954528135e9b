package tokenbucket

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// seedBucket is a token bucket as the seeds keep one: a token count and
// the time of its last refill (spec/003 tokenBucketCheck's request_count
// and last_request_at; spec/000's tokens and last_refill), in State.Log as
// "tokens;unix µs". A refused request writes nothing (spec/003 updates the
// count only when it allows). Its knobs are the seeds' defects; the faults
// of profile token-bucket are each one knob.
type seedBucket struct {
	burst int
	rate  float64 // tokens per second
	// refill is how tokens come back (refillContinuous: the correct rule).
	refill refillRule
	// uncapped leaves out min(burst, …) after the refill.
	uncapped bool
}

// refillRule is how a seed bucket refills.
type refillRule int

const (
	// refillContinuous adds elapsed·R, fractions kept.
	refillContinuous refillRule = iota
	// refillWholeSeconds is spec/003: int(elapsed.Seconds()) * RefillRate,
	// the last refill restarted at every update (the fraction is lost).
	refillWholeSeconds
	// refillBinary is spec/000's "binary reset": the bucket is filled to
	// the burst once a whole period (B/R) has passed since the last refill,
	// and not at all before.
	refillBinary
)

var _ model.Model = seedBucket{}

// Step decides req with the seed's rule.
func (b seedBucket) Step(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
	tokens, last := float64(b.burst), now
	if t, l, ok := decodeSeed(st); ok {
		tokens, last = t, l
	}
	elapsed := max(now.Sub(last), 0)
	period := time.Duration(float64(b.burst) / b.rate * float64(time.Second))
	refilled := now // the last refill stored by an update
	switch b.refill {
	case refillWholeSeconds:
		tokens += float64(int(elapsed.Seconds())) * b.rate
	case refillBinary:
		refilled = last
		if elapsed >= period {
			tokens, refilled = float64(b.burst), now
		}
	case refillContinuous:
		tokens += elapsed.Seconds() * b.rate
	}
	if !b.uncapped {
		tokens = min(tokens, float64(b.burst))
	}
	d := model.Decision{Limit: b.burst, Remaining: int(max(math.Floor(tokens), 0)), Reset: b.reset(tokens, now)}
	if req.Cost == 0 {
		d.Allowed = true
		return st, d
	}
	if tokens < float64(req.Cost) {
		wait := time.Duration((float64(req.Cost) - tokens) / b.rate * float64(time.Second))
		if b.refill == refillBinary {
			wait = period - elapsed
		}
		d.RetryAfter = max(int64(math.Ceil(wait.Seconds())), 1)
		return st, d
	}
	tokens -= float64(req.Cost)
	next := model.State{Found: true, Remaining: int(math.Floor(tokens)), Reset: b.reset(tokens, now),
		Log: strconv.FormatFloat(tokens, 'g', -1, 64) + ";" + strconv.FormatInt(refilled.UnixMicro(), 10)}
	d.Allowed, d.Remaining, d.Reset, d.Write = true, next.Remaining, next.Reset, true
	return next, d
}

// reset is when a bucket holding tokens is full again, at least now + 1 s.
func (b seedBucket) reset(tokens float64, now time.Time) int64 {
	return now.Unix() + max(int64(math.Ceil((float64(b.burst)-tokens)/b.rate)), 1)
}

// decodeSeed reads a seed bucket's State.Log.
func decodeSeed(st model.State) (tokens float64, last time.Time, ok bool) {
	t, l, found := strings.Cut(st.Log, ";")
	if !st.Found || !found {
		return 0, time.Time{}, false
	}
	tokens, err1 := strconv.ParseFloat(t, 64)
	us, err2 := strconv.ParseInt(l, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, time.Time{}, false
	}
	return tokens, time.UnixMicro(us), true
}

// seeded is the Wrap of a fault that serves a seed bucket with the knobs
// of knobs at the server's burst and rate.
func seeded(knobs seedBucket) func(fakeserver.Config) fakeserver.Wrap {
	return fault.Replace(func(cfg fakeserver.Config) model.Model {
		knobs.burst, knobs.rate = cfg.Burst, cfg.Rate
		return knobs
	})
}
