// Command redis-rate is the smallest HTTP server in front of
// go-redis/redis_rate v10 (GCRA in a Redis Lua script): GET /limited asks
// Allow for the key X-User-ID or else the client address, with a burst of
// RL_BURST and RL_RATE per second (a whole number: redis_rate's Rate is an
// int per Period), and answers 429 when nothing is allowed. redis_rate has
// no HTTP middleware and writes no header: the answer is the status only.
// GET /healthz is not limited. PORT is the loopback port, STORE_PORT Redis's.
package main

import (
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

func main() {
	burst, err := strconv.Atoi(os.Getenv("RL_BURST"))
	if err != nil {
		log.Fatalf("RL_BURST: %v", err)
	}
	rate, err := strconv.Atoi(os.Getenv("RL_RATE"))
	if err != nil {
		log.Fatalf("RL_RATE (a whole number per second): %v", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + os.Getenv("STORE_PORT")})
	limiter := redis_rate.NewLimiter(rdb)
	limit := redis_rate.Limit{Rate: rate, Burst: burst, Period: time.Second}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /limited", func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("X-User-ID")
		if key == "" {
			key, _, _ = net.SplitHostPort(r.RemoteAddr)
		}
		res, err := limiter.Allow(r.Context(), key, limit)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		if res.Allowed == 0 {
			http.Error(w, http.StatusText(http.StatusTooManyRequests), http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), mux))
}
