package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Running is a Server listening in the background.
type Running struct {
	URL    string // http://127.0.0.1:port
	Addr   string // host:port listened on
	DBPath string
	Server *Server

	http    *http.Server
	done    chan error
	once    sync.Once
	exitErr error
}

// Start listens on addr (e.g. "127.0.0.1:0") and serves in the background.
func Start(cfg Config, addr string) (*Running, error) {
	srv, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return Serve(srv, ln), nil
}

// Serve serves srv on ln in the background; Close shuts both down.
func Serve(srv *Server, ln net.Listener) *Running {
	hs := &http.Server{
		Handler:           delayed(srv, srv.cfg.Delay, srv.cfg.DelayMax),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	r := &Running{
		URL:    "http://" + ln.Addr().String(),
		Addr:   ln.Addr().String(),
		DBPath: srv.DBPath(),
		Server: srv,
		http:   hs,
		done:   make(chan error, 1),
	}
	go func() {
		err := hs.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r
}

// Close shuts the HTTP server down gracefully (in-flight requests finish,
// at most 10 s), then closes the store and removes a temporary database.
func (r *Running) Close() error {
	r.once.Do(func() { r.exitErr = r.close() })
	return r.exitErr
}

func (r *Running) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := r.http.Shutdown(ctx)
	if serr := <-r.done; err == nil {
		err = serr
	}
	if cerr := r.Server.Close(); err == nil {
		err = cerr
	}
	return err
}
