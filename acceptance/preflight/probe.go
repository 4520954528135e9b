package preflight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
)

// Probe checks that the target (its other instances urls and its flag-off
// twin, when given) answers HTTP at all within timeout. Any HTTP status
// counts as an answer.
func Probe(ctx context.Context, tc service.Config, urls []string, timeout time.Duration) error {
	targets := []struct{ name, url string }{{"TARGET_URL", tc.URL}}
	for _, u := range urls {
		if u != tc.URL {
			targets = append(targets, struct{ name, url string }{"TARGET_URLS", u})
		}
	}
	targets = append(targets, struct{ name, url string }{"TARGET_URL_DISABLED", tc.DisabledURL})
	for _, u := range targets {
		if u.url == "" {
			continue
		}
		if err := probe(ctx, tc.Endpoint(u.url), timeout); err != nil {
			return fmt.Errorf("the target at %s=%s cannot be reached: %w", u.name, redact.URL(u.url), redact.URLError(err))
		}
	}
	return nil
}

func probe(ctx context.Context, endpoint string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tr := &http.Transport{
		DialContext:       (&net.Dialer{Timeout: timeout}).DialContext,
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		var ne net.Error
		if ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout()) {
			return fmt.Errorf("no HTTP answer within %s", timeout)
		}
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.Body.Close()
}
