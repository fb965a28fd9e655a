// Package hosttest runs a Rockstep host on a loopback port for a test, as
// net/http/httptest runs an HTTP server: the tests of the host, the client
// and the bots each started one with the same steps (listen, serve in a
// goroutine, stop and wait when the test ends).
package hosttest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"rockstep/net/host"
	"rockstep/net/transport"
)

// StopLimit bounds how long Stop waits for the host to return: generous,
// not a budget (a loaded machine may be slow).
const StopLimit = 30 * time.Second

// ErrStuck is Stop's error when the host did not return within StopLimit.
var ErrStuck = errors.New("hosttest: the host did not stop")

// Server is a host serving on 127.0.0.1.
type Server struct {
	Host      *host.Host
	Transport *transport.Server

	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
}

// Start serves a host with cfg over a transport with tc on a free loopback
// port. It stops when the test ends, or at Stop; the test fails if the host
// then does not return within StopLimit.
func Start(t testing.TB, tc transport.Config, cfg host.Config) *Server {
	t.Helper()
	srv, err := transport.Listen("127.0.0.1:0", tc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{Host: host.New(cfg), Transport: srv, cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- s.Host.Serve(ctx, srv) }()
	t.Cleanup(func() {
		if err := s.Stop(); errors.Is(err, ErrStuck) {
			t.Error(err)
		}
	})
	return s
}

// Addr is the address clients dial.
func (s *Server) Addr() string { return s.Transport.Addr().String() }

// Stop stops the host (its clients are told it is shutting down) and
// returns what Serve returned: nil for a clean shutdown. Later calls
// return the same.
func (s *Server) Stop() error {
	s.once.Do(func() {
		s.cancel()
		select {
		case s.err = <-s.done:
		case <-time.After(StopLimit):
			s.err = fmt.Errorf("%w within %v", ErrStuck, StopLimit)
		}
	})
	return s.err
}
