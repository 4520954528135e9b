// Package steptest holds the fakes the step packages' tests share: a
// tiny in-memory limiter with switchable defects, clients it answers, an
// Env on them and godog scenarios by name and tags (as net/http/httptest
// does for HTTP).
package steptest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	messages "github.com/cucumber/messages/go/v21"

	"github.com/cucumber/godog"
	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// Client is a hand-rolled scenario.Client: it answers from an in-memory limiter whose defects a
// test can switch on.
type Client struct {
	addr netip.Addr
	lim  *Limiter
	mu   sync.Mutex
	reqs []httpclient.Request
}

var _ scenario.Client = (*Client)(nil)

// Addr is the client address.
func (c *Client) Addr() netip.Addr { return c.addr }

// Close does nothing.
func (c *Client) Close() {}

// Do answers r from the limiter (POST) or with 405.
func (c *Client) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	c.mu.Lock()
	c.reqs = append(c.reqs, r)
	c.mu.Unlock()
	ex := &httpclient.Exchange{Method: r.Method, Body: r.Body, ClientAddr: c.addr, Sent: time.Now()}
	if ex.Method == "" {
		ex.Method = http.MethodPost
	}
	if ex.Method == http.MethodPost {
		c.lim.Answer(c.addr, r, ex)
	} else {
		ex.Status = http.StatusMethodNotAllowed
	}
	ex.Received = time.Now()
	return ex
}

// FuncClient is a scenario.Client at Address whose requests Answer
// answers, each exchange stamped with the address.
type FuncClient struct {
	Address netip.Addr
	Answer  func(ctx context.Context, r httpclient.Request) *httpclient.Exchange
}

var _ scenario.Client = FuncClient{}

// Addr is the client address.
func (c FuncClient) Addr() netip.Addr { return c.Address }

// Close does nothing.
func (FuncClient) Close() {}

// Do is Answer's exchange for r, from the client's address.
func (c FuncClient) Do(ctx context.Context, r httpclient.Request) *httpclient.Exchange {
	ex := c.Answer(ctx, r)
	ex.ClientAddr = c.Address
	return ex
}

// RecordFunc is a scenario.Recorder that hands each verdict to a function.
type RecordFunc func(scenario.ScenarioResult)

// Record calls f with r.
func (f RecordFunc) Record(r scenario.ScenarioResult) { f(r) }

// Limiter is a tiny limiter keyed by device_bucket or address.
type Limiter struct {
	mu        sync.Mutex
	Limit     int
	left      map[string]int
	cache     map[string]*httpclient.Exchange
	Oversell  bool // the bug: every request sees the quota before any spend
	IgnoreKey bool // the bug: the same key with any body gets the cache
	NoReplay  bool // the bug: a replay is processed (and spends) again
	OwnBucket bool // the bug: an invalid device_bucket is a bucket of its own
	Busy      int  // the next Busy POSTs get a busy store's 503 with Retry-After, spending nothing
}

// NewLimiter is a limiter of limit units per bucket and no defect.
func NewLimiter(limit int) *Limiter {
	return &Limiter{Limit: limit, left: map[string]int{}, cache: map[string]*httpclient.Exchange{}}
}

// Answer answers r from addr as the limiter would, into ex.
func (l *Limiter) Answer(addr netip.Addr, r httpclient.Request, ex *httpclient.Exchange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var body map[string]any
	if json.Unmarshal(r.Body, &body) != nil {
		ex.Status, ex.RespBody = 400, []byte(`{"error":"bad_request"}`)
		return
	}
	if l.Busy > 0 {
		l.Busy--
		ex.Status, ex.RespBody = http.StatusServiceUnavailable, []byte(`{"error":"busy"}`)
		ex.RespHeader = http.Header{dialect.HeaderRetryAfter: {"1"}}
		return
	}
	key, _ := body["device_bucket"].(string)
	_, present := body["device_bucket"]
	if len(key) != 64 && !(l.OwnBucket && present) {
		key = "ip:" + addr.String()
	}
	if c, ok := l.cache[r.IdempotencyKey]; ok && !l.NoReplay && (l.IgnoreKey || string(c.Body) == string(r.Body)) {
		ex.Status, ex.RespHeader, ex.RespBody = c.Status, c.RespHeader, c.RespBody
		return
	}
	left, ok := l.left[key]
	if !ok {
		left = l.Limit
	}
	ex.RespHeader = http.Header{}
	ex.RespHeader.Set(dialect.HeaderLimit, strconv.Itoa(l.Limit))
	ex.RespHeader.Set(dialect.HeaderReset, strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	if left <= 0 {
		ex.Status, ex.RespBody = 429, []byte(`{"error":"rate_limited"}`)
		ex.RespHeader.Set(dialect.HeaderRemaining, "0")
		ex.RespHeader.Set(dialect.HeaderRetryAfter, "3600")
		return
	}
	if !l.Oversell {
		l.left[key] = left - 1
	}
	ex.Status, ex.RespBody = 200, []byte(`{"status":"accepted"}`)
	ex.RespHeader.Set(dialect.HeaderRemaining, strconv.Itoa(left-1))
	if r.IdempotencyKey != "" {
		l.cache[r.IdempotencyKey] = ex
	}
}

// NewClient is a client with a fresh address answered by lim.
func NewClient(lim *Limiter) *Client {
	return &Client{addr: httpclient.NewAddr(httpclient.Bind), lim: lim}
}

// Requests is how many requests c sent.
func (c *Client) Requests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.reqs)
}

// SetLeft sets bucket id's units left; false when the bucket has not been
// spent from yet (no row, as in a store).
func (l *Limiter) SetLeft(id string, n int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.left[id]; !ok {
		return false
	}
	l.left[id] = n
	return true
}

// Env is a scenario Env of the default settings with lim's limit, whose
// clients lim answers.
func Env(lim *Limiter) (*scenario.Env, error) {
	cfg := service.DefaultConfig()
	cfg.Limit = lim.Limit
	body, err := bodytmpl.Load("")
	if err != nil {
		return nil, err
	}
	return &scenario.Env{Config: cfg, URL: "http://fake", Body: body, Now: time.Now, MaxWait: service.DefaultMaxWait,
		NewClient: func(string) scenario.Client { return NewClient(lim) }}, nil
}

// Scenario is a godog scenario of name with tags, for a verdict's name,
// id and clauses.
func Scenario(name string, tags ...string) *godog.Scenario {
	sc := &godog.Scenario{Name: name}
	for _, tag := range tags {
		sc.Tags = append(sc.Tags, &messages.PickleTag{Name: tag})
	}
	return sc
}

// BatchOf is a batch of one key sent from t0, one exchange per status, 1 ms
// apart; each 503 carries a busy store's Retry-After and body.
func BatchOf(t0 time.Time, statuses ...int) scenario.Batch {
	b := scenario.Batch{Sent: len(statuses)}
	for i, st := range statuses {
		ex := &httpclient.Exchange{Method: http.MethodPost, Status: st, Sent: t0.Add(time.Duration(i) * time.Millisecond), Received: t0.Add(time.Duration(i+1) * time.Millisecond)}
		if st == http.StatusServiceUnavailable {
			ex.RespHeader, ex.RespBody = http.Header{dialect.HeaderRetryAfter: {"1"}}, []byte(`{"error":"busy"}`)
		}
		b.Exchanges = append(b.Exchanges, ex)
	}
	return b
}

// UndecidedVerdict fails t unless a check's result err is a violation
// exactly when violates, and its scenario's broken assumption (broken, from
// State.Broken) names the undecided requests exactly when undecided.
func UndecidedVerdict(t *testing.T, name string, err error, broken string, violates, undecided bool) {
	t.Helper()
	var v *scenario.Violation
	if errors.As(err, &v) != violates || (!violates && err != nil) {
		t.Errorf("%s: %v, violation wanted %v", name, err, violates)
	}
	if got := strings.Contains(broken, "every request decided"); got != undecided {
		t.Errorf("%s: assumption %q, broken wanted %v", name, broken, undecided)
	}
}
