package service

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/profile"
)

func TestResolvePath(t *testing.T) {
	for _, tc := range []struct {
		name      string
		profile   profile.Name
		url       string
		urls      []string
		disabled  string
		given     string // TARGET_PATH when set
		endpoint  string // of URL
		twin      string // of DisabledURL
		errSubstr string
	}{
		{name: "a URL's path is the endpoint", profile: profile.FixedWindow, url: "http://h:1/api/items", endpoint: "http://h:1/api/items"},
		{name: "also for the PRD", profile: profile.PRD, url: "http://h:1/rides", disabled: "http://h:2", endpoint: "http://h:1/rides", twin: "http://h:2/rides"},
		{name: "TARGET_PATH joins", profile: profile.SlidingLog, url: "http://h:1/prefix", given: "/api/items", endpoint: "http://h:1/prefix/api/items"},
		{name: "no path, generic profile", profile: profile.TokenBucket, url: "http://h:1", endpoint: "http://h:1/"},
		{name: "no path, trailing slash", profile: profile.SlidingLog, url: "http://h:1/", endpoint: "http://h:1/"},
		{name: "no path, PRD", profile: profile.PRD, url: "http://h:1", endpoint: "http://h:1/v1/ride_summary"},
		{name: "query kept", profile: profile.FixedWindow, url: "http://h:1/api/items?token=t", endpoint: "http://h:1/api/items?token=t"},
		{name: "instances", profile: profile.FixedWindow, url: "http://h:1/api", urls: []string{"http://h:1/api", "http://h:2/api"}, endpoint: "http://h:1/api"},
		{name: "instances disagree", profile: profile.FixedWindow, url: "http://h:1/api", urls: []string{"http://h:1/api", "http://h:2/other"}, errSubstr: "TARGET_URLS=http://h:2/other has the path /other, and TARGET_URL /api"},
	} {
		c := DefaultConfig().ForProfile(tc.profile)
		c.URL, c.DisabledURL = tc.url, tc.disabled
		if tc.given != "" {
			c.Path = tc.given
		}
		urls, err := c.ResolvePath(tc.given != "", tc.urls)
		if tc.errSubstr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errSubstr) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.errSubstr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := c.Endpoint(c.URL); got != tc.endpoint {
			t.Errorf("%s: endpoint %s, want %s", tc.name, got, tc.endpoint)
		}
		if tc.twin != "" {
			if got := c.Endpoint(c.DisabledURL); got != tc.twin {
				t.Errorf("%s: twin %s, want %s", tc.name, got, tc.twin)
			}
		}
		for _, u := range urls {
			if got := c.Endpoint(u); !strings.HasSuffix(got, "/api") {
				t.Errorf("%s: instance endpoint %s", tc.name, got)
			}
		}
	}
	// Started targets (no URL) keep the reference's path.
	c := DefaultConfig().ForProfile(profile.SlidingLog)
	if _, err := c.ResolvePath(false, nil); err != nil || c.Path != DefaultPath {
		t.Errorf("embedded: path %q, %v", c.Path, err)
	}
}
