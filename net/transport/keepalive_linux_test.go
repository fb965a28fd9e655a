package transport

import (
	"context"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/internal/testwait"
)

// connCounter is a server handler that counts connections.
type connCounter struct {
	nopHandler
	n atomic.Int32
}

func (c *connCounter) Connected(ConnID, netip.AddrPort) { c.n.Add(1) }

// TestDialSharedFromStandbyPort (loopback): a dial from a listening
// socket's port (a standby's) connects to another server and gets that
// server's datagrams, keep-alives included, while the listening socket
// still accepts everyone else's handshakes on the same port; and the
// other server sees the dial come from that port, the address the
// listening socket's keep-alives came from.
func TestDialSharedFromStandbyPort(t *testing.T) {
	standby, err := ListenShared("127.0.0.1:0", LAN())
	if err != nil {
		t.Fatal(err)
	}
	sh := &connCounter{}
	start(t, func(ctx context.Context) error { return standby.Run(ctx, sh) })
	other := listen(t, LAN())
	oh := &connCounter{}
	start(t, func(ctx context.Context) error { return other.Run(ctx, oh) })

	standby.KeepAlive([]netip.AddrPort{other.Addr()})
	if !testwait.Until(waitLimit, func() bool { return other.Stats().Keepalives > 0 }) {
		t.Fatalf("the other server got no keep-alive from the standby's port: %+v", other.Stats())
	}

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cl, err := standby.DialShared(ctx, other.Addr().String(), LAN())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if got := cl.LocalAddr().Port(); got != standby.Addr().Port() {
		t.Fatalf("the dial left from port %d, want the standby's %d", got, standby.Addr().Port())
	}
	start(t, func(ctx context.Context) error { return cl.Run(ctx, &nopClient{}) })
	if !testwait.Until(waitLimit, func() bool { return oh.n.Load() == 1 }) {
		t.Fatal("the other server did not see the shared dial connect")
	}
	other.KeepAlive([]netip.AddrPort{cl.LocalAddr()})
	if !testwait.Until(waitLimit, func() bool { return cl.Stats().Keepalives > 0 }) {
		t.Fatalf("the shared dial got no keep-alive from the server it dialled: %+v", cl.Stats())
	}
	if d := cl.Stats().TotalDropped(); d != 0 {
		t.Fatalf("the shared dial dropped %d datagrams", d)
	}
	// The standby still answers a newcomer on its port.
	nc := dialT(t, standby, "", LAN())
	defer nc.Close()
	if !testwait.Until(waitLimit, func() bool { return sh.n.Load() == 1 }) {
		t.Fatal("the standby did not accept a newcomer while a dial shared its port")
	}
}

// nopClient is a client handler that does nothing.
type nopClient struct{}

func (nopClient) Message([]byte)     {}
func (nopClient) Tick(now time.Time) {}

// TestDialSharedBothWays (loopback): two standbys dial each other from
// their own ports (two players probing each other, or asking each other
// while the game moves). While A's dial to B holds its connected socket,
// B's handshake to A comes to that socket, not to A's standby: the dial
// passes it on to A's server, so B's dial completes too, and A's standby
// holds B's session.
func TestDialSharedBothWays(t *testing.T) {
	var srv [2]*Server
	var h [2]*connCounter
	for i := range srv {
		s, err := ListenShared("127.0.0.1:0", LAN())
		if err != nil {
			t.Fatal(err)
		}
		srv[i], h[i] = s, &connCounter{}
		start(t, func(ctx context.Context) error { return s.Run(ctx, h[i]) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	ab, err := srv[0].DialShared(ctx, srv[1].Addr().String(), LAN())
	if err != nil {
		t.Fatal(err)
	}
	start(t, func(ctx context.Context) error { return ab.Run(ctx, &nopClient{}) })
	ba, err := srv[1].DialShared(ctx, srv[0].Addr().String(), LAN())
	if err != nil {
		t.Fatalf("B's dial to A while A's dial to B is open: %v", err)
	}
	start(t, func(ctx context.Context) error { return ba.Run(ctx, &nopClient{}) })
	if !testwait.Until(waitLimit, func() bool { return h[0].n.Load() == 1 && h[1].n.Load() == 1 }) {
		t.Fatalf("sessions: A's standby %d, B's %d; want 1 each", h[0].n.Load(), h[1].n.Load())
	}
	// Nothing of B's handshake was lost at A's dial: it was passed on.
	if d := ab.Stats().TotalDropped(); d != 0 {
		t.Fatalf("A's dial dropped %d datagrams (%v): B's handshake was not passed on to A's standby", d, ab.Stats().Dropped)
	}
}
