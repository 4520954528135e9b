package service

import (
	"encoding/json"
	"net/http"

	"github.com/rlspec/rlspec/httpclient"
)

// KeyedRequest is a request of a profile other than the PRD carrying key as
// KEY says: a header, a JSON body field, or nothing (KEY=ip: the client
// address is the key). key "" sends no key, so the client address keys the
// request. The method is TARGET_METHOD; no Content-Type unless a body is
// sent.
func (c Config) KeyedRequest(key string) httpclient.Request {
	r := httpclient.Request{Method: c.Method, ContentType: "-"}
	if key == "" {
		return r
	}
	switch c.Key.Kind {
	case KeyHeader:
		r.Header = http.Header{}
		r.Header.Set(c.Key.Name, key)
	case KeyBody:
		b, _ := json.Marshal(map[string]string{c.Key.Name: key})
		r.Body, r.ContentType = b, "application/json"
	}
	return r
}
