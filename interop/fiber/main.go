// Command fiber is the smallest Fiber v2 server behind Fiber's own limiter
// middleware (memory storage): GET /limited allows RL_LIMIT per RL_WINDOW
// per X-User-ID or else the client address, with the FixedWindow or the
// SlidingWindow handler (LIMITER=fixed|sliding); GET /healthz is not
// limited. PORT is the loopback port.
package main

import (
	"log"
	"os"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/limiter"
)

func main() {
	n, err := strconv.Atoi(os.Getenv("RL_LIMIT"))
	if err != nil {
		log.Fatalf("RL_LIMIT: %v", err)
	}
	w, err := time.ParseDuration(os.Getenv("RL_WINDOW"))
	if err != nil {
		log.Fatalf("RL_WINDOW: %v", err)
	}
	var mw limiter.LimiterHandler
	switch os.Getenv("LIMITER") {
	case "fixed":
		mw = limiter.FixedWindow{}
	case "sliding":
		mw = limiter.SlidingWindow{}
	default:
		log.Fatalf("LIMITER %q is not fixed or sliding", os.Getenv("LIMITER"))
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	ok := func(c *fiber.Ctx) error { return c.SendString("ok\n") }
	app.Get("/healthz", ok)
	app.Get("/limited", limiter.New(limiter.Config{
		Max:        n,
		Expiration: w,
		KeyGenerator: func(c *fiber.Ctx) string {
			if id := c.Get("X-User-ID"); id != "" {
				return id
			}
			return c.IP() // the middleware's default key
		},
		LimiterMiddleware: mw,
	}), ok)
	log.Fatal(app.Listen("127.0.0.1:" + os.Getenv("PORT")))
}
