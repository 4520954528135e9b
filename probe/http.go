package probe

import (
	"context"
	"fmt"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// HTTPTarget is a Target reached over HTTP with the requests an acceptance
// run of cfg sends: the PRD's ride body with the key as its device bucket,
// or a generic profile's keyed request (KEY, KEY_FORMAT, TARGET_METHOD),
// from two client addresses.
type HTTPTarget struct {
	cfg     service.Config
	body    *service.Body
	clients [2]*service.Client
}

var _ Target = (*HTTPTarget)(nil)

// NewHTTPTarget is the target cfg describes, its profile's defaults filled
// in; opts go to both clients.
func NewHTTPTarget(cfg service.Config, opts ...service.ClientOption) (*HTTPTarget, error) {
	cfg = cfg.ForProfile(cfg.Profile)
	t := &HTTPTarget{cfg: cfg}
	if cfg.Profile == profile.PRD {
		var err error
		if cfg.BodyTemplate != "" {
			t.body, err = service.LoadBody(cfg.BodyTemplate)
		} else {
			t.body, err = service.NewBody(service.DefaultBodyTemplate, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
	}
	for i := range t.clients {
		t.clients[i] = service.NewClient(cfg, cfg.URL, opts...)
	}
	return t, nil
}

// Send sends one request keyed by key from client 0 or 1.
func (t *HTTPTarget) Send(ctx context.Context, key string, client int) *service.Exchange {
	c := t.clients[client%len(t.clients)]
	var req service.Request
	switch {
	case t.body != nil:
		f := service.Omit()
		if key != "" {
			f = service.Bucket(key)
		}
		b, err := t.body.Render(f)
		if err != nil {
			return &service.Exchange{Err: err}
		}
		req = service.Request{Method: t.cfg.Method, Body: b}
	default:
		if key != "" {
			k, err := t.cfg.RenderKey(key)
			if err != nil {
				return &service.Exchange{Err: err}
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
