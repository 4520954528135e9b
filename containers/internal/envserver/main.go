// Command envserver is a small HTTP server for the containers package's own
// tests: it follows the image contract's port variables, reports its
// environment and reads and writes files in the data directory, so tests
// can check env propagation, port publishing and volume sharing without
// the reference server.
//
//	GET  /env?name=X         the value of X ("unset" with 404 when unset)
//	PUT  /file?name=F        write the body to $DATA_DIR/F (default /data)
//	GET  /file?name=F        read it back
//	GET  /peer               the client address the server sees
//	GET  /                   200 "ok"
//
// With CRASH set it exits at once with status 3.
package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "envserver:", err)
		os.Exit(1)
	}
}

func run() error {
	if v, ok := os.LookupEnv("CRASH"); ok {
		fmt.Fprintln(os.Stderr, "envserver: crashing on purpose:", v)
		os.Exit(3)
	}
	addr := os.Getenv("LISTEN_ADDR")
	if addr == "" {
		port := os.Getenv("TARGET_PORT")
		if port == "" {
			port = "8080"
		}
		addr = ":" + port
	}
	dir := os.Getenv("DATA_DIR")
	if dir == "" {
		dir = "/data"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, r *http.Request) {
		v, ok := os.LookupEnv(r.URL.Query().Get("name"))
		if !ok {
			http.Error(w, "unset", http.StatusNotFound)
			return
		}
		fmt.Fprint(w, v)
	})
	mux.HandleFunc("GET /peer", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, r.RemoteAddr)
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		if name == "" || strings.ContainsAny(name, `/\`) || name == ".." {
			http.Error(w, "bad name", http.StatusBadRequest)
			return
		}
		p := filepath.Join(dir, name)
		switch r.Method {
		case http.MethodPut:
			b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			if err == nil {
				err = os.WriteFile(p, b, 0o644)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case http.MethodGet:
			b, err := os.ReadFile(p)
			if errors.Is(err, os.ErrNotExist) {
				http.Error(w, "no such file", http.StatusNotFound)
				return
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Write(b)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
	return http.ListenAndServe(addr, mux)
}
