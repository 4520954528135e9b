package loadgen

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// GeneratorRun is one generator of a merged load: what its interval log
// said of its start, what it measured, and, for a generator that did not
// finish, why (Error; its log, as far as it got, is still in the totals).
type GeneratorRun struct {
	Name      string    `json:"name"`                // the log's file or the replica
	Generator string    `json:"generator,omitempty"` // "i/N"
	Requests  int64     `json:"requests"`
	StartAt   time.Time `json:"start_at,omitzero"` // the schedule's absolute start
	// StartLagMs is how late after StartAt the generator began.
	StartLagMs float64 `json:"start_lag_ms"`
	Error      string  `json:"error,omitempty"`
}

// Began is when the generator actually began: StartAt plus its lag.
func (g GeneratorRun) Began() time.Time {
	return g.StartAt.Add(time.Duration(g.StartLagMs * float64(time.Millisecond)))
}

// commentPrefix opens the comment line of a generator on an absolute
// schedule: "#[rlspec generator=0/3 start_at=… start_lag_ns=…]".
const commentPrefix = "rlspec generator="

func generatorComment(m Meta) string {
	g := m.Generator
	if g == "" {
		g = "0/1"
	}
	return fmt.Sprintf("[%s%s start_at=%s start_lag_ns=%d]", commentPrefix, g, m.StartAt.UTC().Format(time.RFC3339Nano), m.StartLag.Nanoseconds())
}

// parseGeneratorComment reads the generator comment of an interval log,
// if it has one.
func parseGeneratorComment(log []byte) (g GeneratorRun, ok bool, err error) {
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			break // comments come first
		}
		body, found := strings.CutPrefix(line, "#["+commentPrefix)
		if !found {
			continue
		}
		body = "generator=" + strings.TrimSuffix(body, "]")
		for _, kv := range strings.Fields(body) {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "generator":
				g.Generator = v
			case "start_at":
				if g.StartAt, err = time.Parse(time.RFC3339Nano, v); err != nil {
					return g, false, fmt.Errorf("generator comment: start_at: %w", err)
				}
			case "start_lag_ns":
				ns, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return g, false, fmt.Errorf("generator comment: start_lag_ns: %w", err)
				}
				g.StartLagMs = float64(ns) / 1e6
			}
		}
		return g, true, nil
	}
	return g, false, nil
}

// startSkew is the spread of the generators' actual beginnings (latest
// minus earliest), over those on an absolute schedule; 0 with fewer than two.
func startSkew(gens []GeneratorRun) time.Duration {
	var first, last time.Time
	n := 0
	for _, g := range gens {
		if g.StartAt.IsZero() {
			continue
		}
		b := g.Began()
		if n == 0 || b.Before(first) {
			first = b
		}
		if n == 0 || b.After(last) {
			last = b
		}
		n++
	}
	if n < 2 {
		return 0
	}
	return last.Sub(first)
}
