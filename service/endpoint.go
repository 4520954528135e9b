package service

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

// Endpoint is the full URL of the endpoint on base: base's path (a prefix,
// often empty) joined with Path, base's query kept.
func (c Config) Endpoint(base string) string {
	u, err := url.Parse(base)
	if err != nil || base == "" || (u.RawQuery == "" && u.Fragment == "") {
		return strings.TrimRight(base, "/") + c.Path
	}
	u.Path, u.RawPath = strings.TrimRight(u.Path, "/")+c.Path, ""
	return u.String()
}

// Sending is how a client sends to the service: from which addresses
// (CLIENT_IPS) and with which extra headers (TARGET_HEADERS).
func (c Config) Sending() (httpclient.AddrMode, http.Header) { return c.ClientIPs, c.Headers }

var _ httpclient.Target = Config{}

// ResolvePath settles the endpoint of a service given by URL (TARGET_URL,
// and urls, TARGET_URLS) once the settings are read, and returns urls
// without the endpoint's path; pathGiven says TARGET_PATH was
// set, and then nothing changes. Otherwise a URL's own path is the
// endpoint (TARGET_URL=http://h/api/items): it moves from the URLs to
// Path, and every URL must have that path or none. A URL without a path
// gets its profile's endpoint: the PRD's /v1/ride_summary, / for the other
// profiles, which do not default to the PRD's path. Started targets (an
// image, the embedded reference) keep Path: they serve the reference's.
func (c *Config) ResolvePath(pathGiven bool, urls []string) ([]string, error) {
	if pathGiven || (c.URL == "" && len(urls) == 0) {
		return urls, nil
	}
	path := ""
	for _, u := range append([]string{c.URL}, urls...) {
		if p := urlPath(u); p != "" {
			path = p
			break
		}
	}
	if path == "" {
		if c.Profile != profile.PRD && c.Profile != profile.Every && c.Profile != "" {
			c.Path = "/"
		}
		return urls, nil
	}
	strip := func(name string, u *string) error {
		switch p := urlPath(*u); {
		case *u == "" || p == "":
		case p != path:
			return fmt.Errorf("%s=%s has the path %s, and TARGET_URL %s: give every URL the endpoint's path (or none), or set TARGET_PATH and give base URLs", name, redact.URL(*u), p, path)
		default:
			pu, _ := url.Parse(*u)
			pu.Path, pu.RawPath = "", ""
			*u = pu.String()
		}
		return nil
	}
	for _, f := range []struct {
		name string
		u    *string
	}{{"TARGET_URL", &c.URL}, {"TARGET_URL_DISABLED", &c.DisabledURL}, {"TARGET_URL_PENALTIES", &c.PenaltiesURL}} {
		if err := strip(f.name, f.u); err != nil {
			return nil, err
		}
	}
	urls = slices.Clone(urls)
	for i := range urls {
		if err := strip("TARGET_URLS", &urls[i]); err != nil {
			return nil, err
		}
	}
	c.Path = path
	return urls, nil
}

// urlPath is u's path as written, "" for none or "/".
func urlPath(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Path == "/" {
		return ""
	}
	return p.Path
}
