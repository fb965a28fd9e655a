package transport

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/net/wire"
)

// dgramServer echoes every frame back as a datagram.
type dgramServer struct {
	s *Server
}

func (d *dgramServer) Connected(ConnID, netip.AddrPort) {}
func (d *dgramServer) Message(c ConnID, f []byte)       { _ = d.s.SendDatagram(c, f) }
func (d *dgramServer) Disconnected(ConnID, error)       {}
func (d *dgramServer) Tick(time.Time)                   {}

type dgramClient struct {
	mu   sync.Mutex
	got  map[byte]bool
	sent map[byte]time.Time
}

func (d *dgramClient) Message(f []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got[f[0]] = true
}
func (d *dgramClient) Tick(time.Time) {}

// TestDatagramsBothWays: frames sent as datagrams reach the server and
// come back, beside the KCP session; a frame too big for one datagram is
// refused. (That a datagram's round trip is far below KCP's flush interval
// is BenchmarkDatagramRoundTrip's to show: BENCHMARKS.md.)
func TestDatagramsBothWays(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", LAN())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = srv.Run(ctx, &dgramServer{s: srv}) }()
	c, err := Dial(ctx, srv.Addr().String(), LAN())
	if err != nil {
		t.Fatal(err)
	}
	// Before Run, or from its handler: Run's goroutines own the client.
	if err := c.SendDatagram(make([]byte, wire.MaxFrame)); !errors.Is(err, ErrFrameSize) {
		t.Errorf("a frame over one datagram: %v, want ErrFrameSize", err)
	}
	h := &dgramClient{got: map[byte]bool{}, sent: map[byte]time.Time{}}
	sendCh := make(chan byte)
	go func() { _ = c.Run(ctx, &sendingClient{h, c, sendCh}) }()
	for i := 0; i < 50; i++ {
		sendCh <- byte(i)
		time.Sleep(5 * time.Millisecond) // a stream of turns, not a burst
	}
	// Datagrams may be lost, even on loopback: most must come back.
	eventually(t, "45 of 50 datagrams echoed on loopback", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.got) >= 45
	})
}

// BenchmarkDatagramRoundTrip: one 4-byte datagram frame to the server and
// back over loopback, the next sent when the last returns (or, lost,
// after 100 ms). KCP would hold a frame up to its flush interval (10 ms).
func BenchmarkDatagramRoundTrip(b *testing.B) {
	srv := listen(b, LAN())
	start(b, func(ctx context.Context) error { return srv.Run(ctx, &dgramServer{s: srv}) })
	cl := dialT(b, srv, "", LAN())
	p := &dgramPinger{cl: cl, end: b.N, done: make(chan struct{})}
	b.ResetTimer()
	start(b, func(ctx context.Context) error { return cl.Run(ctx, p) })
	select {
	case <-p.done:
	case <-time.After(time.Duration(b.N)*100*time.Millisecond + waitLimit):
		b.Fatalf("round trips not done: %d of %d", p.n.Load(), b.N)
	}
}

// dgramPinger sends a datagram when the last one has come back.
type dgramPinger struct {
	cl   *Client
	n    atomic.Int64
	end  int
	done chan struct{}
	sent time.Time // on the client's goroutine only
}

func (p *dgramPinger) Message([]byte) {
	switch n := int(p.n.Add(1)); {
	case n == p.end:
		close(p.done)
	case n < p.end:
		p.send()
	}
}

func (p *dgramPinger) Tick(now time.Time) {
	if int(p.n.Load()) < p.end && now.Sub(p.sent) > 100*time.Millisecond {
		p.send() // the first, or one lost
	}
}

func (p *dgramPinger) send() {
	p.sent = time.Now()
	_ = p.cl.SendDatagram([]byte{1, 2, 3, 4})
}

// sendingClient sends on the client's own goroutine whatever arrives on ch.
type sendingClient struct {
	*dgramClient
	c  *Client
	ch chan byte
}

func (s *sendingClient) Tick(time.Time) {
	for {
		select {
		case b := <-s.ch:
			s.mu.Lock()
			s.sent[b] = time.Now()
			s.mu.Unlock()
			_ = s.c.SendDatagram([]byte{b, 1, 2, 3})
		default:
			return
		}
	}
}
