package probe

import (
	"context"
	"fmt"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// HTTPTarget is a Target reached over HTTP with the requests an acceptance
// run of cfg sends: the PRD's ride body with the key as its device bucket,
// or a generic profile's keyed request (KEY, KEY_FORMAT, TARGET_METHOD),
// from two client addresses.
type HTTPTarget struct {
	cfg     service.Config
	body    *bodytmpl.Body
	clients [2]*httpclient.Client
}

var _ Target = (*HTTPTarget)(nil)

// NewHTTPTarget is the target cfg describes, its profile's defaults filled
// in; opts go to both clients.
func NewHTTPTarget(cfg service.Config, opts ...httpclient.Option) (*HTTPTarget, error) {
	cfg = cfg.ForProfile(cfg.Profile)
	t := &HTTPTarget{cfg: cfg}
	if cfg.Profile == profile.PRD {
		var err error
		if cfg.BodyTemplate != "" {
			t.body, err = bodytmpl.Load(cfg.BodyTemplate)
		} else {
			t.body, err = bodytmpl.New(bodytmpl.Default, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
	}
	for i := range t.clients {
		t.clients[i] = httpclient.New(cfg, cfg.URL, opts...)
	}
	return t, nil
}

// Send sends one request keyed by key from client 0 or 1.
func (t *HTTPTarget) Send(ctx context.Context, key string, client int) *httpclient.Exchange {
	c := t.clients[client%len(t.clients)]
	var req httpclient.Request
	switch {
	case t.body != nil:
		f := bodytmpl.Omit()
		if key != "" {
			f = bodytmpl.Bucket(key)
		}
		b, err := t.body.Render(f)
		if err != nil {
			return &httpclient.Exchange{Err: err}
		}
		req = httpclient.Request{Method: t.cfg.Method, Body: b}
	default:
		if key != "" {
			k, err := t.cfg.RenderKey(key)
			if err != nil {
				return &httpclient.Exchange{Err: err}
			}
			key = k
		}
		req = t.cfg.KeyedRequest(key)
	}
	return c.Do(ctx, req)
}

// Close releases the clients' connections.
func (t *HTTPTarget) Close() {
	for _, c := range t.clients {
		c.Close()
	}
}
