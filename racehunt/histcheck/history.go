package histcheck

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// Op is one recorded request of a workload run.
type Op struct {
	Index int // position in the history
	Burst int
	Req   Req
	// Bucket is the key the target should count the request against:
	// "dev:<device_bucket>" or "ip:<client address>".
	Bucket   string
	IdemKey  string
	BodyHash string // SHA-256 of the request body, hex
	Ex       *httpclient.Exchange
	// ServerFrom and ServerTo bound the target's clock while the request was
	// in flight: the fake clock's reading against the embedded reference,
	// the wall clock at send and receive otherwise.
	ServerFrom, ServerTo time.Time
}

// Unknown reports whether the outcome of the op is unknown (no complete
// response): it may or may not have taken effect.
func (o *Op) Unknown() bool { return o.Ex == nil || o.Ex.Err != nil }

// String is a one-line account of the op.
func (o *Op) String() string {
	s := fmt.Sprintf("#%d burst %d %s bucket %s", o.Index, o.Burst, o.Req, shortBucket(o.Bucket))
	if o.IdemKey != "" {
		s += " key " + o.IdemKey
	}
	if o.Ex == nil {
		return s + ": not sent"
	}
	return s + ": " + o.Ex.Summary()
}

// shortBucket is how a bucket is printed: in full, since users paste it
// into their own queries (issue 17); the name stays for its callers.
func shortBucket(b string) string { return b }

// History is what one run of a workload recorded.
type History struct {
	Limit  int
	Window time.Duration
	// Profile is the design the target claims ("" the PRD); Model its
	// sequential oracle at Limit (nil: the PRD's, with idempotency).
	// Answer is how the target answers (DIALECT, LIMITED_STATUS,
	// LIMITED_BODY, …; auto resolved from the first answer by Check), and
	// WindowAlign fixed-window's alignment.
	Profile     profile.Name
	Model       model.Model
	WindowAlign profile.Align
	Answer      dialect.Settings
	// Tolerance is the allowed skew between the recorded server time and
	// the target's clock (0 against the embedded reference's fake clock).
	Tolerance time.Duration
	Ops       []Op
	// Notes say what the runner could not do (e.g. a boundary wait longer
	// than MaxWait was skipped).
	Notes []string
}

// Unknown counts ops without a complete response.
func (h *History) Unknown() int {
	n := 0
	for i := range h.Ops {
		if h.Ops[i].Unknown() {
			n++
		}
	}
	return n
}

func HashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:16])
}

// statusOf is the op's HTTP status, 0 when unknown.
func statusOf(o *Op) int {
	if o.Unknown() {
		return 0
	}
	return o.Ex.Status
}

// RateLimitOf reads the op's rate-limit fields in its exchange's dialect.
func RateLimitOf(o *Op) (dialect.RateLimit, error) {
	rd := readOf(o)
	return rd.rl, rd.err
}

// reading is an op's response read once in its exchange's dialect: the
// observation and its rate-limit fields as whole numbers (err: missing,
// malformed or deviating, or no response).
type reading struct {
	ob  dialect.Observation
	rl  dialect.RateLimit
	err error
}

// readOf reads o's response (Exchange.Observe) once, for all the checks.
func readOf(o *Op) reading {
	if o.Unknown() {
		return reading{err: fmt.Errorf("no response")}
	}
	ob := o.Ex.Observe()
	rl, err := dialect.RateLimitOf(ob)
	return reading{ob: ob, rl: rl, err: err}
}

// answerSettled reports whether h.Answer leaves nothing to auto.
func (h *History) answerSettled() bool {
	return h.Answer.Dialect.Concrete() && (h.Answer.Dialect != dialect.XRateLimit || h.Answer.ResetFormat.Concrete())
}

// answerFrom settles what h.Answer leaves to auto from o (dialect.Detect)
// when o is answered (2xx or a refusal), noting which op settled it, and
// reports whether it did. The Checker asks it of each op added until one
// is answered, so that every op is read, and checked, in the form the
// target answered first, even one that changes form later.
func (h *History) answerFrom(o *Op) bool {
	if o.Unknown() || o.Ex.Status/100 != 2 && !h.Answer.Refused(o.Ex.Status) {
		return false
	}
	d := h.Answer.Detect(dialect.Response{Status: o.Ex.Status, Header: o.Ex.RespHeader, Body: o.Ex.RespBody, Received: o.Ex.Received})
	h.Answer = d.Settings
	h.Notes = append(h.Notes, d.Sentence(fmt.Sprintf("op %d, the first answered", o.Index)))
	return true
}

// BoundLost moves the latest decision time of every request without a
// response (a timeout on a loaded machine) to the end of the history: the
// target may still decide it after the clock has moved on for later bursts,
// so bounding it by its own burst's clock would be a false verdict. Any
// time after the last answered request's is equivalent to that one: no
// answered request can have seen it.
func (h *History) BoundLost() {
	var end time.Time
	for i := range h.Ops {
		if o := &h.Ops[i]; !o.Unknown() && o.ServerTo.After(end) {
			end = o.ServerTo
		}
	}
	for i := range h.Ops {
		if o := &h.Ops[i]; o.Unknown() && o.ServerTo.Before(end) {
			o.ServerTo = end
		}
	}
}
