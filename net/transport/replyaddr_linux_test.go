package transport

import (
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"rockstep/internal/netns"
)

// TestWildcardServerAnswersFromDialledAddress: a server bound to a
// wildcard address, on a link with two addresses, answers a client that
// dialled the second one from that second one, so the client (whose
// socket is connected to the address it dialled) hears it: a Hello gets
// its Cookie from the address it went to, and a whole handshake and a
// stream of frames work through each address, over IPv4 on 0.0.0.0 and
// on a dual-stack [::], and over IPv6 on [::]. The client is bound to the
// link's first address: the system's own choice of source for a reply to
// it would be that address whichever one the client dialled.
func TestWildcardServerAnswersFromDialledAddress(t *testing.T) {
	if !netns.Isolate(t, netnsEnv, 2*time.Minute) {
		return
	}
	if err := netns.IP("link", "set", "lo", "up"); err != nil {
		t.Skipf("private namespace: %v", err)
	}
	// A link (one end of a veth pair) with two addresses of each family;
	// nodad: usable at once.
	if err := netns.IP("link", "add", "two0", "type", "veth", "peer", "name", "two1"); err != nil {
		t.Skipf("private namespace: no veth link: %v", err)
	}
	for _, args := range [][]string{
		{"link", "set", "two0", "up"},
		{"link", "set", "two1", "up"},
		{"addr", "add", "10.9.0.1/24", "dev", "two0"},
		{"addr", "add", "10.9.0.2/24", "dev", "two0"},
		{"-6", "addr", "add", "fd09::1/64", "dev", "two0", "nodad"},
		{"-6", "addr", "add", "fd09::2/64", "dev", "two0", "nodad"},
	} {
		if err := netns.IP(args...); err != nil {
			t.Fatalf("ip %v: %v", args, err)
		}
	}
	for _, tc := range []struct{ name, listen, client, first, second string }{
		{"ipv4 on 0.0.0.0", "0.0.0.0:0", "10.9.0.1", "10.9.0.1", "10.9.0.2"},
		{"ipv4 on [::]", "[::]:0", "10.9.0.1", "10.9.0.1", "10.9.0.2"},
		{"ipv6 on [::]", "[::]:0", "fd09::1", "fd09::1", "fd09::2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := LAN()
			cfg.HandshakeTimeout = 5 * time.Second
			srv, err := Listen(tc.listen, cfg)
			if err != nil {
				t.Fatal(err)
			}
			sh, _ := serveStreams(t, srv, 200)
			_ = sh
			port := srv.Addr().Port()
			for _, to := range []string{tc.first, tc.second} {
				dest := netip.AddrPortFrom(netip.MustParseAddr(to), port)
				// A Hello from an unconnected socket: where does its Cookie come from?
				raw, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr(tc.client), 0)))
				if err != nil {
					t.Fatal(err)
				}
				var nonce [nonceSize]byte
				nonce[0] = 7
				if _, err := raw.WriteToUDPAddrPort(appendHello(nil, nonce), dest); err != nil {
					t.Fatal(err)
				}
				_ = raw.SetReadDeadline(time.Now().Add(waitLimit))
				buf := make([]byte, 1500)
				n, from, err := raw.ReadFromUDPAddrPort(buf)
				raw.Close()
				if err != nil {
					t.Fatalf("hello to %v: no answer: %v", dest, err)
				}
				if buf[0] != kindCookie || n != cookieLen {
					t.Errorf("hello to %v: answer of kind %d, %d bytes; want a cookie", dest, buf[0], n)
				}
				if got := netip.AddrPortFrom(from.Addr().Unmap(), from.Port()); got != dest {
					t.Errorf("hello to %v: answered from %v", dest, got)
				}
				// A whole session, through a connected socket that hears only dest.
				ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
				cl, err := DialFrom(ctx, netip.MustParseAddr(tc.client), dest.String(), cfg)
				cancel()
				if err != nil {
					t.Fatalf("dial %v from %s: %v", dest, tc.client, err)
				}
				ch := &streamClient{cl: cl, s: stream{n: 200}}
				start(t, func(ctx context.Context) error { return cl.Run(ctx, ch) })
				eventually(t, "200 frames each way through "+dest.String(), func() bool {
					done := false
					ch.view(func(s *stream) { done = s.got == 200 && s.sent == 200 })
					return done
				})
			}
		})
	}
}
