package httpclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A request header with no values removes that header of TARGET_HEADERS;
// one with values replaces it. The exchange records what was sent.
func TestRequestHeaderRemovesAndReplaces(t *testing.T) {
	got := make(chan http.Header, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Clone() }))
	defer srv.Close()
	cfg := target{}
	cfg.Headers = http.Header{"Authorization": {"Bearer right"}, "X-Team": {"rides"}}
	cfg.ClientIPs = XFF
	c := New(cfg, srv.URL)
	defer c.Close()
	for _, tc := range []struct {
		h    http.Header
		want string
	}{
		{nil, "Bearer right"},
		{http.Header{"Authorization": {}}, ""},
		{http.Header{"Authorization": {"Bearer wrong"}}, "Bearer wrong"},
	} {
		ex := c.Do(context.Background(), Request{Header: tc.h})
		if ex.Err != nil {
			t.Fatal(ex.Err)
		}
		if _, present := ex.Header["Authorization"]; tc.want == "" && present {
			t.Errorf("header %v: the exchange records Authorization %q", tc.h, ex.Header.Values("Authorization"))
		}
		h := <-got
		if _, present := h["Authorization"]; h.Get("Authorization") != tc.want || (tc.want == "" && present) {
			t.Errorf("header %v: server saw Authorization %q", tc.h, h.Values("Authorization"))
		}
		if h.Get("X-Team") != "rides" {
			t.Errorf("header %v: X-Team lost", tc.h)
		}
	}
}
