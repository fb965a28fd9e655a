package transport

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"testing"
	"time"
)

// TestBatchSocket sends a batch of datagrams of different sizes with one
// writeBatch and reads them back with readBatch, byte for byte and with the
// sender's address: on an IPv4 socket, and on a dual-stack one writing to
// an IPv4 peer (which goes v4-mapped), with the system's batches and with
// one datagram a call.
func TestBatchSocket(t *testing.T) {
	for _, tc := range []struct{ name, from string }{
		{"ipv4", "127.0.0.1:0"},
		{"dual-stack", ":0"},
	} {
		for _, single := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s single=%v", tc.name, single), func(t *testing.T) {
				src := listenUDP(t, tc.from)
				dst := listenUDP(t, "127.0.0.1:0")
				open := func(c *net.UDPConn) batchSocket {
					if single {
						return singleSocket{c}
					}
					return openBatchSocket(c, 8)
				}
				ws, rs := open(src), open(dst)
				to := dst.LocalAddr().(*net.UDPAddr).AddrPort()
				const n = 8
				bufs, tos := make([][]byte, n), make([]netip.AddrPort, n)
				for i := range bufs {
					bufs[i] = bytes.Repeat([]byte{byte(i + 1)}, 10+100*i)
					tos[i] = to
				}
				if sent, err := ws.writeBatch(bufs, nil, tos); sent != n || err != nil {
					t.Fatalf("writeBatch: %d sent, %v", sent, err)
				}
				srcPort := src.LocalAddr().(*net.UDPAddr).AddrPort().Port()
				got := 0
				rb, ns, from := make([][]byte, n), make([]int, n), make([]netip.AddrPort, n)
				for i := range rb {
					rb[i] = make([]byte, 1500)
				}
				_ = dst.SetReadDeadline(time.Now().Add(10 * time.Second))
				for tries := 0; got < n && tries < n; tries++ {
					k, err := rs.readBatch(rb[got:], ns[got:], from[got:], nil)
					if err != nil {
						t.Fatalf("readBatch after %d datagrams: %v", got, err)
					}
					if got == 0 && !single && runtime.GOOS == "linux" && k < 2 {
						t.Errorf("the first read took %d of %d waiting datagrams: not a batch", k, n)
					}
					got += k
				}
				if got != n {
					t.Fatalf("read %d datagrams, want %d", got, n)
				}
				for i := range n {
					if !bytes.Equal(rb[i][:ns[i]], bufs[i]) {
						t.Errorf("datagram %d: %d bytes, want %d bytes of %d", i, ns[i], len(bufs[i]), i+1)
					}
					if want := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), srcPort); from[i] != want {
						t.Errorf("datagram %d from %v, want %v", i, from[i], want)
					}
				}
			})
		}
	}
}

func listenUDP(t *testing.T, addr string) *net.UDPConn {
	t.Helper()
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBatchWriterSkipsWhatTheSystemRefuses: a datagram the system will not
// send (too large for UDP) is skipped, and the batch's other datagrams go.
func TestBatchWriterSkipsWhatTheSystemRefuses(t *testing.T) {
	src := listenUDP(t, "127.0.0.1:0")
	dst := listenUDP(t, "127.0.0.1:0")
	to := dst.LocalAddr().(*net.UDPAddr).AddrPort()
	w := newBatchWriter(polledSocket{src}, 1200, 4)
	w.add([]byte("first"), netip.Addr{}, to)
	w.add(make([]byte, 70000), netip.Addr{}, to) // larger than any UDP datagram
	w.add([]byte("third"), netip.Addr{}, to)
	w.flush()
	_ = dst.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 100)
	for _, want := range []string{"first", "third"} {
		n, _, err := dst.ReadFromUDPAddrPort(buf)
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, want)
		}
	}
}
