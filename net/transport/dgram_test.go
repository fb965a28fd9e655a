package transport

import (
	"context"
	"errors"
	"net/netip"
	"sync"
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
	rtts []time.Duration
}

func (d *dgramClient) Message(f []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got[f[0]] = true
	d.rtts = append(d.rtts, time.Since(d.sent[f[0]]))
}
func (d *dgramClient) Tick(time.Time) {}

// TestDatagramsSkipKCPDelay: a datagram echo over loopback takes far less
// than KCP's flush interval, and both sides see the frames.
func TestDatagramsSkipKCPDelay(t *testing.T) {
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
	h := &dgramClient{got: map[byte]bool{}, sent: map[byte]time.Time{}}
	sendCh := make(chan byte)
	go func() { _ = c.Run(ctx, &sendingClient{h, c, sendCh}) }()
	for i := 0; i < 50; i++ {
		sendCh <- byte(i)
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.got) < 45 {
		t.Fatalf("%d of 50 datagrams echoed on loopback", len(h.got))
	}
	fast := 0
	for _, r := range h.rtts {
		if r < 5*time.Millisecond {
			fast++
		}
	}
	if fast < len(h.rtts)/2 {
		t.Errorf("only %d of %d datagram round trips under 5 ms: %v", fast, len(h.rtts), h.rtts)
	}
	if err := c.SendDatagram(make([]byte, wire.MaxFrame)); !errors.Is(err, ErrFrameSize) {
		t.Errorf("a frame over one datagram: %v, want ErrFrameSize", err)
	}
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
