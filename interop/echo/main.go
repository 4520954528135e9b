// Command echo is the smallest Echo v4 server behind Echo's own RateLimiter
// middleware with its memory store (golang.org/x/time/rate): GET /limited
// allows a burst of RL_BURST refilled at RL_RATE per second, per X-User-ID or
// else the client address; GET /healthz is not limited. PORT is the
// loopback port.
package main

import (
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

func main() {
	burst, err := strconv.Atoi(os.Getenv("RL_BURST"))
	if err != nil {
		log.Fatalf("RL_BURST: %v", err)
	}
	r, err := strconv.ParseFloat(os.Getenv("RL_RATE"), 64)
	if err != nil {
		log.Fatalf("RL_RATE: %v", err)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{Rate: rate.Limit(r), Burst: burst})
	limit := middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: store,
		IdentifierExtractor: func(c echo.Context) (string, error) {
			if id := c.Request().Header.Get("X-User-ID"); id != "" {
				return id, nil
			}
			return c.RealIP(), nil // the middleware's default extractor
		},
	})
	ok := func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") }
	e.GET("/limited", ok, limit)
	e.GET("/healthz", ok)
	log.Fatal(e.Start("127.0.0.1:" + os.Getenv("PORT")))
}
