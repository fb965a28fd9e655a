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
	cl, err := DialShared(ctx, standby.Addr().Port(), other.Addr().String(), LAN())
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
