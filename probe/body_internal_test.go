package probe

import "testing"

// TestRefusalBodyOfErrorPages: HTML error pages are matched by the phrase
// that names the limit, not by their first line; a page without one by
// its title. Pages as nginx 1.22.1 (src/http/ngx_http_special_response.c:
// 237-241, 309-313), HAProxy 2.6.12 (src/http.c:293) and werkzeug write them.
func TestRefusalBodyOfErrorPages(t *testing.T) {
	for body, want := range map[string]string{
		"<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n": "text:Too Many Requests",
		"<html><body><h1>429 Too Many Requests</h1>\nYou have sent too many requests in a given amount of time.\n</body></html>\n":     "text:Too Many Requests",
		"<!doctype html>\n<html lang=en>\n<title>429 Too Many Requests</title>\n<h1>Too Many Requests</h1>\n<p>5 per 3 second</p>\n":   "text:Too Many Requests",
		"<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n":                                                "text:503 Service Temporarily Unavailable",
		`{"error":"rate_limited"}`: "/error=rate_limited",
	} {
		if b, _ := refusalBody([]byte(body)); b.String() != want {
			t.Errorf("%.40q: %s, want %s", body, b.String(), want)
		}
	}
}
