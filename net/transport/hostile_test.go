package transport

import (
	"encoding/binary"
	"math/rand/v2"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHostileTraffic throws garbage, forgeries and a Hello flood at a running
// server over loopback while one healthy client streams frames both ways.
// The stream must go on undisturbed, no session may appear for any other
// source, no Cookie may be larger than its Hello, and every datagram that
// reaches the server must be counted, by reason.
func TestHostileTraffic(t *testing.T) {
	cfg := LAN()
	srv := listen(t, cfg)
	sh, _ := serveStreams(t, srv, 1<<30)
	ch, _ := streamTo(t, srv, cfg, 1<<30)

	var conv uint32
	flowing := func(more int) func() bool {
		var base int
		ch.view(func(s *stream) { base = s.got })
		return func() bool {
			got := 0
			ch.view(func(s *stream) {
				if s.err != nil {
					t.Fatalf("client stream: %v", s.err)
				}
				got = s.got
			})
			sh.view(func() {
				for c, s := range sh.streams {
					if s.err != nil {
						t.Fatalf("server stream: %v", s.err)
					}
					conv = uint32(c)
				}
			})
			return got >= base+more
		}
	}
	eventually(t, "healthy stream started", flowing(100))

	atk, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	defer atk.Close()
	atkAddr := atk.LocalAddr().(*net.UDPAddr).AddrPort()
	rng := rand.New(rand.NewPCG(1, 2))

	// A Connect with a cookie that was right for this address 30 s ago.
	jar := newCookieJar(srv.cookies.secret)
	n7, n8 := nonceOf(7), nonceOf(8)
	atkPub := make([]byte, keySize)
	atkPub[0] = 9 // the X25519 base point: a valid key
	stale := appendConnect(nil, n7, jar.make(atkAddr, n7[:], window(time.Now())-3), atkPub)
	// A cookie that is right for atk now, replayed with another nonce.
	fresh := jar.make(atkAddr, n8[:], window(time.Now()))
	renonced := appendConnect(nil, nonceOf(9), fresh, atkPub)

	// A datagram shaped like a sealed one, with a KCP segment in clear
	// where the ciphertext goes and no valid tag: what a forger who knows
	// the conv (it travels in clear) can make.
	segment := func(conv uint32, seq uint32, payload []byte) []byte {
		b := []byte{kindData}
		b = binary.LittleEndian.AppendUint32(b, conv)
		b = binary.LittleEndian.AppendUint32(b, seq)
		b = binary.LittleEndian.AppendUint32(b, conv)
		b = append(b, 81, 0, 128, 0) // PUSH, frg 0, wnd 128
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, seq)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
		b = append(b, payload...)
		return append(b, make([]byte, tagSize)...)
	}
	// A forged Ping or Close: header, the payload in clear, a made-up tag.
	forged := func(kind byte, conv, seq uint32, payload ...byte) []byte {
		b := []byte{kind}
		b = binary.LittleEndian.AppendUint32(b, conv)
		b = binary.LittleEndian.AppendUint32(b, seq)
		b = append(b, payload...)
		return append(b, make([]byte, tagSize)...)
	}
	repeat := func(n int, gen func(i int) []byte) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			out[i] = gen(i)
		}
		return out
	}
	clientOnly := []byte{kindCookie, kindAccept, kindRefuse}

	tests := []struct {
		name string
		pkts [][]byte
		want DropReason
	}{
		{"random bytes", repeat(100, func(i int) []byte {
			b := make([]byte, 1+rng.IntN(cfg.MTU))
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
			if i%10 == 0 {
				b[0] = clientOnly[i%3]
			} else {
				b[0] = byte(int(kindResponse) + 1 + rng.IntN(255-int(kindResponse))) // no such kind
			}
			return b
		}), DropMalformed},
		{"truncated", [][]byte{
			{}, {kindHello}, appendHello(nil, nonceOf(1))[:helloSize-1],
			appendConnect(nil, nonceOf(1), fresh, atkPub)[:connectSize-1],
			{kindData}, {kindData, 1, 2, 3}, forged(kindPing, 5, 1)[:sealedOverhead-1], forged(kindClose, 5, 1, 0)[:10],
		}, DropMalformed},
		{"oversized", repeat(20, func(i int) []byte {
			b := make([]byte, cfg.MTU+1+i*300)
			b[0] = kindData
			return b
		}), DropOversize},
		{"data for unknown convs", repeat(50, func(i int) []byte {
			return segment(conv+1+uint32(i), uint32(i), []byte("inject"))
		}), DropUnknownSession},
		{"the healthy session's conv, forged", repeat(30, func(i int) []byte {
			seq := 1<<31 + uint32(i) // ahead of the client's: not taken for a replay
			switch i % 3 {
			case 0:
				return forged(kindPing, conv, seq)
			case 1:
				return forged(kindClose, conv, seq, CloseNormal)
			}
			return segment(conv, seq, []byte("spoofed frame"))
		}), DropForged},
		{"stale and replayed Connects", repeat(20, func(i int) []byte {
			if i%2 == 0 {
				return stale
			}
			return renonced
		}), DropBadCookie},
	}
	for _, tc := range tests {
		before := srv.Stats()
		for _, p := range tc.pkts {
			if _, err := atk.WriteToUDPAddrPort(p, srv.Addr()); err != nil {
				t.Fatalf("%s: send: %v", tc.name, err)
			}
		}
		want := uint64(len(tc.pkts))
		eventually(t, tc.name+": drops counted", func() bool {
			return srv.Stats().Dropped[tc.want]-before.Dropped[tc.want] >= want
		})
		after := srv.Stats()
		if got := after.Dropped[tc.want] - before.Dropped[tc.want]; got != want {
			t.Errorf("%s: %d %s drops, want %d", tc.name, got, tc.want, want)
		}
		if got := after.TotalDropped() - before.TotalDropped(); got != want {
			t.Errorf("%s: %d drops in all, want %d: %v", tc.name, got, want, after.Dropped)
		}
		if after.Sessions != 1 || after.Accepted != 1 {
			t.Errorf("%s: %d sessions, %d accepted; want 1, 1", tc.name, after.Sessions, after.Accepted)
		}
	}
	// The attacker heard nothing: no Cookie, no Accept, no Close.
	_ = atk.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, _, err := atk.ReadFromUDPAddrPort(make([]byte, 2048)); err == nil {
		t.Errorf("attacker got a %d-byte reply", n)
	}

	// The Hello flood: 40 sockets, 100 Hellos each (twice a second's
	// CookieRate), of sizes from 65 bytes.
	runtime.GC()
	var mem0 runtime.MemStats
	runtime.ReadMemStats(&mem0)
	before := srv.Stats()
	begin := time.Now()
	const sockets, hellos = 40, 100
	socks := make([]*net.UDPConn, sockets)
	for i := range socks {
		s, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		socks[i] = s
		size := helloSize + i%100
		for j := range hellos {
			h := appendHello(make([]byte, 0, size), nonceOf(i*hellos+j))
			h = h[:size]
			if _, err := s.WriteToUDPAddrPort(h, srv.Addr()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Wait until the server has handled every Hello that reached it: the
	// count stops moving (loopback drops what a slow reader cannot take).
	handled := func() uint64 {
		d := srv.Stats()
		return d.Cookies - before.Cookies + d.Dropped[DropRate] - before.Dropped[DropRate]
	}
	last, still := handled(), 0
	eventually(t, "flood handled", func() bool {
		if n := handled(); n != last || n == 0 {
			last, still = n, 0
			return false
		}
		still++
		return still >= 100 // half a second without a new one
	})
	took := time.Since(begin)
	after := srv.Stats()
	cookies := after.Cookies - before.Cookies
	rated := after.Dropped[DropRate] - before.Dropped[DropRate]
	// Every Hello that arrived was answered or counted as a rate drop, and
	// nothing else was dropped.
	if cookies+rated > sockets*hellos || after.TotalDropped()-before.TotalDropped() != rated {
		t.Errorf("flood: %d cookies, %d rate drops, drops %v: not all accounted for", cookies, rated, after.Dropped)
	}
	// The rate limit, per source address and port: a second's worth at
	// once, then CookieRate a second for as long as the flood took to
	// handle, however slow.
	if most := uint64(float64(sockets*cfg.CookieRate) * (1 + took.Seconds())); rated == 0 || cookies > most {
		t.Errorf("flood: %d Cookies sent and %d rate drops in %v, want at most %d Cookies and some drops", cookies, rated, took, most)
	}
	if after.Sessions != 1 || after.Accepted != 1 {
		t.Errorf("flood: %d sessions, %d accepted; want 1, 1", after.Sessions, after.Accepted)
	}
	// Read every socket's replies, all at once, until every Cookie sent
	// has been read (or waitLimit).
	type reply struct{ sock, n, kind int }
	got := make(chan reply, sockets*hellos)
	var read sync.WaitGroup
	var replies atomic.Uint64
	sent := func() uint64 { return srv.Stats().Cookies - before.Cookies }
	deadline := time.Now().Add(waitLimit)
	for i, s := range socks {
		read.Go(func() {
			buf := make([]byte, 2048)
			for mine := 0; mine < hellos && time.Now().Before(deadline); {
				_ = s.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				n, _, err := s.ReadFromUDPAddrPort(buf)
				if err != nil {
					if replies.Load() >= sent() {
						return // every Cookie is read: none is on its way here
					}
					continue
				}
				mine++
				replies.Add(1)
				got <- reply{i, n, int(buf[0])}
			}
		})
	}
	read.Wait()
	close(got)
	for r := range got {
		if r.n > helloSize+r.sock%100 || r.kind != int(kindCookie) {
			t.Errorf("socket %d: a %d-byte reply of kind %d to %d-byte Hellos", r.sock, r.n, r.kind, helloSize+r.sock%100)
		}
	}
	if n, want := replies.Load(), sent(); n != want {
		t.Errorf("flood: %d replies received, %d Cookies sent", n, want)
	}
	runtime.GC()
	var mem1 runtime.MemStats
	runtime.ReadMemStats(&mem1)
	if grew := int64(mem1.HeapAlloc) - int64(mem0.HeapAlloc); grew > 4<<20 {
		t.Errorf("heap grew by %d bytes during the flood", grew)
	}
	t.Logf("flood: %d Hellos received of %d sent, %d answered, %d dropped by rate", cookies+rated, sockets*hellos, cookies, rated)

	// The healthy client never noticed.
	eventually(t, "healthy stream goes on", flowing(500))
}
