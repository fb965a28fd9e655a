package transport

import (
	"bytes"
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"rockstep/internal/testwait"
)

// carriedEcho answers every frame with the same frame and counts sessions.
type carriedEcho struct {
	srv *Server

	mu        sync.Mutex
	addrs     map[ConnID]netip.AddrPort
	connected int
	gone      int
}

func (e *carriedEcho) Connected(c ConnID, a netip.AddrPort) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.addrs[c] = a
	e.connected++
}
func (e *carriedEcho) Message(c ConnID, f []byte) { _ = e.srv.Send(c, f) }
func (e *carriedEcho) Disconnected(ConnID, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.gone++
}
func (e *carriedEcho) Tick(time.Time) {}

func (e *carriedEcho) count() (connected, gone int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.connected, e.gone
}

// carriedEchoClient keeps what the server echoes.
type carriedEchoClient struct {
	mu  sync.Mutex
	got [][]byte
}

func (h *carriedEchoClient) Message(f []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, append([]byte(nil), f...))
}
func (h *carriedEchoClient) Tick(time.Time) {}
func (h *carriedEchoClient) frames() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.got)
}

func startEcho(t *testing.T, cfg Config) (*Server, *carriedEcho) {
	t.Helper()
	srv, err := Listen("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &carriedEcho{srv: srv, addrs: map[ConnID]netip.AddrPort{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx, h); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return srv, h
}

// carry starts srv.Carry for one end of an in-memory carrier from addr and
// returns the other end and Carry's result.
func carry(t *testing.T, srv *Server, from string) (Carrier, <-chan error) {
	t.Helper()
	a, b := MemCarriers()
	res := make(chan error, 1)
	go func() { res <- srv.Carry(context.Background(), netip.MustParseAddrPort(from), a) }()
	return b, res
}

// A client over a carrier makes the same session as over UDP: handshake,
// the carrier's address seen by the handler, frames both ways; its
// carrier's end ends the session.
func TestCarrierSession(t *testing.T) {
	srv, h := startEcho(t, Config{})
	end, res := carry(t, srv, "192.0.2.7:40000")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := DialCarrier(ctx, "mem", end, Config{ClientConfig: ClientConfig{HostFingerprint: Fingerprint(srv.HostKey().pub)}})
	if err != nil {
		t.Fatalf("dial over a carrier: %v", err)
	}
	if err := c.Send([]byte("reliable")); err != nil {
		t.Fatal(err)
	}
	ec := &carriedEchoClient{}
	runCtx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(runCtx, ec) }()
	if !testwait.Until(10*time.Second, func() bool { return ec.frames() >= 1 }) {
		t.Fatal("no echo over the carrier")
	}
	h.mu.Lock()
	for _, a := range h.addrs {
		if a != CarriedAddr(netip.MustParseAddrPort("192.0.2.7:40000")) || peerIP(a) != netip.MustParseAddr("192.0.2.7") {
			t.Errorf("session's address %v, want the carrier's", a)
		}
	}
	h.mu.Unlock()
	if got := srv.CarriedConns(); got != 1 {
		t.Errorf("CarriedConns = %d, want 1", got)
	}
	stop()
	<-ran
	select {
	case err := <-res:
		if err != nil {
			t.Errorf("Carry after the client left: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Carry went on after its carrier closed")
	}
	if !testwait.Until(10*time.Second, func() bool { _, g := h.count(); return g == 1 }) {
		t.Error("the session outlived its carrier")
	}
}

// Carriers count against the per-address and per-network shares; an
// oversized message ends only its own carrier.
func TestCarrierLimitsAndOversize(t *testing.T) {
	srv, _ := startEcho(t, Config{ServerConfig: ServerConfig{MaxPerIP: 2, MaxPerSubnet: 3}})
	held := []Carrier{}
	for _, from := range []string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.2:1"} {
		end, _ := carry(t, srv, from)
		held = append(held, end)
	}
	if !testwait.Until(10*time.Second, func() bool { return srv.CarriedConns() == 3 }) {
		t.Fatalf("CarriedConns = %d, want 3", srv.CarriedConns())
	}
	for _, tc := range []struct{ name, from string }{
		{"third from one address", "192.0.2.1:3"},
		{"fourth from one /24", "192.0.2.9:1"},
	} {
		_, res := carry(t, srv, tc.from)
		if err := <-res; !errors.Is(err, ErrCarrierLimit) {
			t.Errorf("%s: Carry = %v, want ErrCarrierLimit", tc.name, err)
		}
	}
	// Another network is not held back.
	other, otherRes := carry(t, srv, "198.51.100.1:1")
	if !testwait.Until(10*time.Second, func() bool { return srv.CarriedConns() == 4 }) {
		t.Fatalf("another network's carrier: CarriedConns = %d, want 4", srv.CarriedConns())
	}
	if err := held[0].WriteMessage(context.Background(), bytes.Repeat([]byte{kindHello}, 4000)); err != nil {
		t.Fatal(err)
	}
	if !testwait.Until(10*time.Second, func() bool { return srv.CarriedConns() == 3 }) {
		t.Fatalf("after an oversized message: CarriedConns = %d, want 3 (only its carrier closed)", srv.CarriedConns())
	}
	if _, err := held[0].ReadMessage(context.Background()); err == nil {
		t.Error("the oversized message's carrier is still open")
	}
	other.Close()
	if err := <-otherRes; err != nil {
		t.Errorf("Carry of a carrier its peer closed: %v", err)
	}
}

// An impaired carrier delays messages by its latency and loses its share
// of them, both ways.
func TestImpairCarrier(t *testing.T) {
	a, b := MemCarriers()
	ia := ImpairCarrier(a, Impairment{Latency: 30 * time.Millisecond, Loss: 0.5}, 1)
	defer ia.Close()
	defer b.Close()
	const n = 200
	sent := time.Now()
	for i := range n {
		if err := ia.WriteMessage(context.Background(), []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	got := 0
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	first := time.Duration(0)
	for {
		if _, err := b.ReadMessage(ctx); err != nil {
			break
		}
		if got == 0 {
			first = time.Since(sent)
		}
		got++
	}
	if got == 0 || got == n {
		t.Errorf("%d of %d messages through a link losing half: want some lost, some through", got, n)
	}
	if first < 30*time.Millisecond {
		t.Errorf("the first message came after %v, before the link's latency of 30 ms", first)
	}
}

// A carried peer and a UDP peer at the same IP and port number (a TCP
// port and a UDP port are apart) are two peers: each handshake's replies
// go its own way, and both count against the one IP's share.
func TestCarriedAndUDPSamePortOffline(t *testing.T) {
	cfg := LAN()
	cfg.MaxPerIP = 2
	o := newOffline(t, cfg)
	udp := addr(t, "192.0.2.30:5000")
	carriedAt := CarriedAddr(udp)
	peer := &carrierPeer{out: make(chan []byte, carrierQueue)}
	ev := carrierEvent{from: carriedAt, peer: peer, done: make(chan struct{})}
	o.onCarrierEvent(t0, ev)

	if _, refused := o.handshake(t, t0, udp, nonceOf(1)); refused != 0 {
		t.Fatalf("UDP peer refused (%d)", refused)
	}
	if n := len(peer.out); n != 0 {
		t.Fatalf("%d of the UDP peer's replies went to the carrier at the same port number", n)
	}
	// The carried peer's Hello: its Cookie goes to the carrier, not the socket.
	hs, err := newClientHandshake("")
	if err != nil {
		t.Fatal(err)
	}
	o.handlePacket(t0, carriedAt, hs.pkt)
	if out := o.take(); len(out) != 0 {
		t.Fatalf("the carried peer's Cookie went to the socket: %v", out)
	}
	if len(peer.out) != 1 {
		t.Fatalf("%d replies in the carrier, want the Cookie", len(peer.out))
	}
	if _, err := hs.receive(<-peer.out); err != nil || !hs.cookie {
		t.Fatalf("Cookie: %v", err)
	}
	o.handlePacket(t0, carriedAt, hs.pkt) // Connect
	if est, err := hs.receive(<-peer.out); est == nil || err != nil {
		t.Fatalf("the carried peer's Accept: %v", err)
	}
	if got := o.perIP[netip.MustParseAddr("192.0.2.30")]; got != 2 {
		t.Errorf("sessions counted for 192.0.2.30: %d, want 2 (one UDP, one carried)", got)
	}
	// A third session from that IP, either way, is over its share.
	if _, refused := o.handshake(t, t0, addr(t, "192.0.2.30:5001"), nonceOf(2)); refused != RefusePerIP {
		t.Errorf("a third session from one IP: refused %d, want RefusePerIP", refused)
	}
}
