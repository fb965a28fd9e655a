package transport

import (
	"context"
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// echoServer sends every frame back to its sender.
type echoServer struct{ srv *Server }

func (e echoServer) Connected(ConnID, netip.AddrPort) {}
func (e echoServer) Message(c ConnID, f []byte)       { _ = e.srv.Send(c, f) }
func (e echoServer) Disconnected(ConnID, error)       {}
func (e echoServer) Tick(time.Time)                   {}

// pingClient sends the next frame when the previous one comes back.
type pingClient struct {
	cl     *Client
	n, end int
	done   chan struct{}
	frame  []byte
}

func (p *pingClient) Message([]byte) {
	if p.n++; p.n == p.end {
		close(p.done)
		return
	}
	_ = p.cl.Send(p.frame)
}
func (p *pingClient) Tick(time.Time) {}

// BenchmarkRoundTrip: one 16-byte frame to the server and back over
// loopback, the next sent when the last returns.
func BenchmarkRoundTrip(b *testing.B) {
	cfg := LAN()
	srv := listen(b, cfg)
	start(b, func(ctx context.Context) error { return srv.Run(ctx, echoServer{srv}) })
	cl := dialT(b, srv, "", cfg)
	p := &pingClient{cl: cl, end: b.N, done: make(chan struct{}), frame: make([]byte, 16)}
	b.ResetTimer()
	if err := cl.Send(p.frame); err != nil {
		b.Fatal(err)
	}
	start(b, func(ctx context.Context) error { return cl.Run(ctx, p) })
	select {
	case <-p.done:
	case <-time.After(time.Duration(b.N)*100*time.Millisecond + 5*time.Second):
		b.Fatalf("%d of %d round trips", p.n, b.N)
	}
}

// BenchmarkServerTick: one server tick with n sessions, no socket.
// Idle sessions (nothing sent or received) get a heartbeat every
// Heartbeat, which is most of their cost. Playing sessions carry turns as
// datagrams both ways, so no heartbeat is due and KCP has nothing to do:
// the tick only looks at them every sweepTicks. An idle session's KCP is
// not updated (session.update); when it was, on a real 10 ms ticker each
// update also flushed, about 160 ns per session per tick with 1000
// sessions, measured by hand on the 2-core machine.
func BenchmarkServerTick(b *testing.B) {
	for _, mode := range []string{"idle", "playing"} {
		for _, n := range []int{100, 1000, 2000} {
			b.Run(fmt.Sprintf("%s/sessions=%d", mode, n), func(b *testing.B) {
				cfg := LAN()
				cfg.MaxSessions, cfg.MaxPerIP, cfg.MaxPerSubnet = n, n, n
				cfg.HandshakeRate, cfg.MaxHandshakeRate = 2*n, 2*n
				cfg.Timeout = 1 << 62 // never dead, however long the benchmark runs
				if mode == "playing" {
					cfg.Heartbeat = 1 << 61 // datagrams went out lately
				}
				o := newOffline(b, cfg)
				for i := range n {
					from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 4000)
					if _, refused := o.handshake(b, t0, from, nonceOf(i)); refused != 0 {
						b.Fatalf("session %d refused: %d", i, refused)
					}
				}
				o.writeTo = func([]byte, netip.Addr, netip.AddrPort) {}
				now := t0
				o.tick(now) // the handshakes' own KCP work
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					now = now.Add(cfg.Interval)
					o.tick(now)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/session")
			})
		}
	}
}

// BenchmarkHello: the cost of one Hello to the server, answered or dropped
// by the rate limit.
func BenchmarkHello(b *testing.B) {
	for _, tc := range []struct {
		name string
		rate int
	}{{"answered", 1 << 30}, {"rate-limited", 1}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := LAN()
			cfg.CookieRate, cfg.MaxCookieRate = tc.rate, tc.rate
			o := newOffline(b, cfg)
			o.writeTo = func([]byte, netip.Addr, netip.AddrPort) {}
			hello := appendHello(nil, nonceOf(1))
			ip := netip.MustParseAddr("10.0.0.1")
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				o.handlePacket(t0, netip.AddrPortFrom(ip, uint16(i)), hello)
			}
		})
	}
}

// turnEcho answers every frame with a 60-byte datagram (a master turn for
// eight players is about that size).
type turnEcho struct {
	srv    *Server
	answer []byte
}

func (e turnEcho) Connected(ConnID, netip.AddrPort) {}
func (e turnEcho) Message(c ConnID, _ []byte)       { _ = e.srv.SendDatagram(c, e.answer) }
func (e turnEcho) Disconnected(ConnID, error)       {}
func (e turnEcho) Tick(time.Time)                   {}

// BenchmarkServerTurn: the server's work for one turn of 1,000 sessions,
// no socket: each session's 15-byte turn datagram received (opened,
// checked against the replay window) and delivered, and a 60-byte answer
// sent (sealed). ns/session is the cost of one such exchange; the
// clients' sealing happens outside the timer. The same benchmark on the
// build before sealed datagrams is in BENCHMARKS.md.
func BenchmarkServerTurn(b *testing.B) {
	const n = 1000
	cfg := LAN()
	cfg.MaxSessions, cfg.MaxPerIP, cfg.MaxPerSubnet = n, n, n
	cfg.HandshakeRate, cfg.MaxHandshakeRate = 2*n, 2*n
	o := newOffline(b, cfg)
	peers := make([]*testPeer, n)
	for i := range n {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 4000)
		p, refused := o.handshake(b, t0, from, nonceOf(i))
		if refused != 0 {
			b.Fatalf("session %d refused: %d", i, refused)
		}
		peers[i] = p
	}
	o.h = turnEcho{o.Server, make([]byte, 60)}
	o.writeTo = func([]byte, netip.Addr, netip.AddrPort) {}
	turn := make([]byte, 15)
	const batch = 16
	pkts := make([][][]byte, n)
	refill := func() {
		for i, p := range peers {
			pkts[i] = pkts[i][:0]
			for range batch {
				pkts[i] = append(pkts[i], p.seal(b, kindDgram, turn))
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for it := range b.N {
		if it%batch == 0 {
			b.StopTimer()
			refill()
			b.StartTimer()
		}
		for i, p := range peers {
			o.handlePacket(t0, p.from, pkts[i][it%batch])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/session")
	if st := o.Stats(); st.TotalDropped() != 0 {
		b.Fatalf("drops: %v", st.Dropped)
	}
}

// BenchmarkSealOpen: one datagram sealed by one end and opened by the
// other, for a turn-sized and a full-sized payload.
func BenchmarkSealOpen(b *testing.B) {
	for _, size := range []int{15, LAN().MTU - sealedOverhead} {
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			client, server := fuzzChannels(b)
			payload := make([]byte, size)
			sealed := make([]byte, 0, LAN().MTU)
			plain := make([]byte, 0, LAN().MTU)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for range b.N {
				var err error
				sealed, err = client.seal(sealed[:0], kindDgram, payload)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, r := server.open(plain, sealed); r != openOK {
					b.Fatalf("open: %d", r)
				}
			}
		})
	}
}
