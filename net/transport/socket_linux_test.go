package transport

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestDetachedSocket: a server's socket taken out of Go's poller reads a
// batch that waits for its first datagram, writes a batch, wakes a blocked
// read with net.ErrClosed when interrupted, and frees its port on release.
func TestDetachedSocket(t *testing.T) {
	conn := listenUDP(t, "127.0.0.1:0")
	addr := conn.LocalAddr().(*net.UDPAddr).AddrPort()
	d, err := detach(conn)
	if err != nil {
		t.Fatal(err)
	}
	peer := listenUDP(t, "127.0.0.1:0")
	peerAddr := peer.LocalAddr().(*net.UDPAddr).AddrPort()

	rs, ws := d.batches(4), d.batches(4)
	bufs, ns, from := make([][]byte, 4), make([]int, 4), make([]netip.AddrPort, 4)
	for i := range bufs {
		bufs[i] = make([]byte, 100)
	}
	type read struct {
		n   int
		err error
	}
	reads := make(chan read, 1)
	go func() { // blocks until the datagram comes
		n, err := rs.readBatch(bufs, ns, from, nil)
		reads <- read{n, err}
	}()
	time.Sleep(20 * time.Millisecond) // most often the read waits by now; the test holds either way
	if _, err := peer.WriteToUDPAddrPort([]byte("turn"), addr); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-reads:
		if r.err != nil || r.n != 1 || string(bufs[0][:ns[0]]) != "turn" || from[0] != peerAddr {
			t.Fatalf("read %d datagrams (%q from %v), %v; want \"turn\" from %v", r.n, bufs[0][:ns[0]], from[0], r.err, peerAddr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a blocked read did not see the datagram")
	}

	if n, err := ws.writeBatch([][]byte{[]byte("master 1"), []byte("master 2")}, nil, []netip.AddrPort{peerAddr, peerAddr}); n != 2 || err != nil {
		t.Fatalf("writeBatch: %d sent, %v", n, err)
	}
	_ = peer.SetReadDeadline(time.Now().Add(10 * time.Second))
	for _, want := range []string{"master 1", "master 2"} {
		b := make([]byte, 100)
		n, src, err := peer.ReadFromUDPAddrPort(b)
		if err != nil || string(b[:n]) != want || src != addr {
			t.Fatalf("peer read %q from %v, %v; want %q from %v", b[:n], src, err, want, addr)
		}
	}

	go func() {
		n, err := rs.readBatch(bufs, ns, from, nil)
		reads <- read{n, err}
	}()
	time.Sleep(20 * time.Millisecond)
	d.interrupt()
	select {
	case r := <-reads:
		if !errors.Is(r.err, net.ErrClosed) {
			t.Fatalf("an interrupted read returned %d, %v; want net.ErrClosed", r.n, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("interrupt did not wake a blocked read")
	}
	if _, err := ws.writeBatch([][]byte{[]byte("late")}, nil, []netip.AddrPort{peerAddr}); err == nil {
		t.Error("a write after interrupt went out")
	}
	d.release()
	again, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(addr))
	if err != nil {
		t.Fatalf("the port is still taken after release: %v", err)
	}
	again.Close()
}

// TestKernelDropsCounted: datagrams that arrive while the server's socket
// buffer is full are dropped by the kernel before the server sees them;
// the server counts them as DropSocketFull, so that every datagram sent is
// either received (PacketsIn) or counted there.
func TestKernelDropsCounted(t *testing.T) {
	srv := listen(t, LAN())
	d, ok := srv.sock.(*detachedSocket)
	if !ok {
		t.Skip("the server's socket is in Go's poller here")
	}
	// The smallest buffer the kernel allows: a few datagrams fill it.
	if err := unix.SetsockoptInt(d.fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 1); err != nil {
		t.Fatal(err)
	}
	peer := listenUDP(t, "127.0.0.1:0")
	const sent = 300
	junk := make([]byte, 200) // malformed: dropped and counted once read
	for range sent {
		if _, err := peer.WriteToUDPAddrPort(junk, srv.Addr()); err != nil {
			t.Fatal(err)
		}
	}
	serveStreams(t, srv, 0) // reads what the buffer held, then counts the rest
	eventually(t, "every datagram read or counted as a kernel drop", func() bool {
		s := srv.Stats()
		return s.PacketsIn+s.Dropped[DropSocketFull] == sent
	})
	if s := srv.Stats(); s.Dropped[DropSocketFull] == 0 || s.PacketsIn == 0 {
		t.Errorf("%d read, %d dropped by the kernel: want some of each", s.PacketsIn, s.Dropped[DropSocketFull])
	}
}
