package transport

import (
	"context"
	"sync"
	"testing"
	"time"
)

// pingPong is a Waker client that, each time the echo comes back (echoServer),
// asks to be woken a moment later and sends the next ping then.
type pingPong struct {
	cl     *Client
	mu     sync.Mutex
	wakeAt time.Time // zero: waiting for the echo
	rounds int
}

func (h *pingPong) Message([]byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wakeAt = time.Now().Add(2 * time.Millisecond)
}

func (h *pingPong) Tick(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.wakeAt.IsZero() || now.Before(h.wakeAt) {
		return
	}
	h.wakeAt = time.Time{}
	h.rounds++
	_ = h.cl.SendDatagram([]byte{byte(h.rounds)})
}

func (h *pingPong) Wake() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.wakeAt
}

// A Waker's wake asked for while a datagram is handled is kept: the
// client's Run wakes then, not at its next Interval. The client's Interval
// is the longest there is, so that a hundred rounds woken by it would take
// minutes, past the test's limit.
func TestWakeAskedOnADatagramIsKept(t *testing.T) {
	scfg := LAN()
	scfg.Timeout = time.Minute // the client is silent until its first wake
	srv := listen(t, scfg)
	start(t, func(ctx context.Context) error { return srv.Run(ctx, echoServer{srv}) })
	cfg := LAN()
	cfg.Interval = 5 * time.Second
	cfg.Heartbeat = 10 * time.Second
	cfg.Timeout = time.Minute
	cl := dialT(t, srv, "", cfg)
	h := &pingPong{cl: cl, wakeAt: time.Now().Add(100 * time.Millisecond)}
	start(t, func(ctx context.Context) error { return cl.Run(ctx, h) })
	eventually(t, "a hundred rounds", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.rounds >= 100
	})
}
