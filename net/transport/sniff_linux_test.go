//go:build linux

package transport

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"rockstep/internal/netns"
)

// netnsEnv marks this test binary re-run inside a private network
// namespace (see netns.Isolate).
const netnsEnv = "ROCKSTEP_TRANSPORT_NETNS"

// captured is one UDP datagram a sniffer saw on lo.
type captured struct {
	from, to netip.AddrPort
	payload  []byte
}

// sniff captures the UDP datagrams between a and b on lo, both ways, until
// it has want of each direction or waitLimit passes: what anyone on a
// shared network sees. It needs CAP_NET_RAW, which the private namespace
// gives.
func sniff(t *testing.T, a, b netip.AddrPort, want int) (ab, ba []captured) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_DGRAM, int(htons(unix.ETH_P_IP)))
	if err != nil {
		t.Skipf("no packet socket: %v", err)
	}
	defer unix.Close(fd)
	tv := unix.NsecToTimeval((100 * time.Millisecond).Nanoseconds())
	_ = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	buf := make([]byte, 65536)
	deadline := time.Now().Add(waitLimit)
	for (len(ab) < want || len(ba) < want) && time.Now().Before(deadline) {
		n, from, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			continue
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); !ok || ll.Pkttype != unix.PACKET_HOST {
			continue // lo shows each packet twice: going out and coming in
		}
		c, ok := parseUDP(buf[:n])
		switch {
		case !ok:
		case c.from == a && c.to == b:
			ab = append(ab, c)
		case c.from == b && c.to == a:
			ba = append(ba, c)
		}
	}
	return ab, ba
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// parseUDP reads an IPv4 packet carrying UDP.
func parseUDP(p []byte) (captured, bool) {
	if len(p) < 28 || p[0]>>4 != 4 || p[9] != unix.IPPROTO_UDP {
		return captured{}, false
	}
	ihl := int(p[0]&0xf) * 4
	if len(p) < ihl+8 {
		return captured{}, false
	}
	src, _ := netip.AddrFromSlice(p[12:16])
	dst, _ := netip.AddrFromSlice(p[16:20])
	u := p[ihl:]
	ulen := int(binary.BigEndian.Uint16(u[4:6]))
	if ulen < 8 || ulen > len(u) {
		return captured{}, false
	}
	return captured{
		from:    netip.AddrPortFrom(src, binary.BigEndian.Uint16(u[0:2])),
		to:      netip.AddrPortFrom(dst, binary.BigEndian.Uint16(u[2:4])),
		payload: append([]byte(nil), u[8:ulen]...),
	}, true
}

// spoofer sends UDP datagrams with any source address and port, through a
// raw socket that writes its own IPv4 header.
type spoofer struct{ fd int }

func newSpoofer(t *testing.T) *spoofer {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_RAW)
	if err != nil {
		t.Skipf("no raw socket: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return &spoofer{fd: fd}
}

func (s *spoofer) send(t *testing.T, from, to netip.AddrPort, payload []byte) {
	t.Helper()
	p := make([]byte, 28, 28+len(payload))
	p[0], p[8], p[9] = 0x45, 64, unix.IPPROTO_UDP
	binary.BigEndian.PutUint16(p[2:], uint16(28+len(payload)))
	f, d := from.Addr().As4(), to.Addr().As4()
	copy(p[12:16], f[:])
	copy(p[16:20], d[:])
	binary.BigEndian.PutUint16(p[20:], from.Port())
	binary.BigEndian.PutUint16(p[22:], to.Port())
	binary.BigEndian.PutUint16(p[24:], uint16(8+len(payload))) // checksum 0: none (IPv4)
	p = append(p, payload...)
	if err := unix.Sendto(s.fd, p, 0, &unix.SockaddrInet4{Addr: d}); err != nil {
		t.Fatalf("spoof: %v", err)
	}
}

// TestSniffedAndSpoofed, inside a private network namespace: an attacker
// that sees every packet of a session on the wire (a packet socket on lo)
// and can send with any source address (a raw socket) replays the client's
// datagrams from the client's own address and port, replays the server's
// to the client from the server's, and forges a Close, a turn and a hash
// both ways with the session's conversation id. The streams go on, the
// session stays where it is, and every injected datagram is counted by the
// end it reached as a replay or a forgery.
func TestSniffedAndSpoofed(t *testing.T) {
	if !netns.Isolate(t, netnsEnv, 2*time.Minute) {
		return
	}
	if err := netns.IP("link", "set", "lo", "up"); err != nil {
		t.Skipf("private namespace: %v", err)
	}
	cfg := LAN()
	srv := listen(t, cfg)
	sh, _ := serveStreams(t, srv, 1<<30)
	ch, _ := streamTo(t, srv, cfg, 1<<30)
	cl := ch.cl
	eventually(t, "the streams start", func() bool {
		got := 0
		ch.view(func(s *stream) { got = s.got })
		return got > 50
	})
	var conv uint32
	sh.view(func() {
		for c := range sh.streams {
			conv = uint32(c)
		}
	})
	client, server := cl.LocalAddr(), srv.Addr()
	toServer, toClient := sniff(t, client, server, 40)
	if len(toServer) < 40 || len(toClient) < 40 {
		t.Fatalf("sniffed %d and %d datagrams, want 40 each way", len(toServer), len(toClient))
	}
	toServer, toClient = toServer[:40], toClient[:40]
	sp := newSpoofer(t)
	inject := func(name string, stats func() [NumDropReasons]uint64, from, to netip.AddrPort, pkts [][]byte, reason DropReason) {
		t.Helper()
		defer pauseStreams(t, sh, ch)()
		before := stats()
		for _, p := range pkts {
			sp.send(t, from, to, p)
		}
		eventually(t, name+": counted", func() bool { return stats()[reason]-before[reason] >= uint64(len(pkts)) })
		after := stats()
		var total uint64
		for i := range after {
			total += after[i] - before[i]
		}
		if total != uint64(len(pkts)) {
			t.Errorf("%s: %d drops, want %d, all %v: %v", name, total, len(pkts), reason, after)
		}
	}
	srvDrops := func() [NumDropReasons]uint64 { return srv.Stats().Dropped }
	cliDrops := func() [NumDropReasons]uint64 { return cl.Stats().Dropped }
	payloads := func(cs []captured) [][]byte {
		out := make([][]byte, len(cs))
		for i, c := range cs {
			out[i] = c.payload
		}
		return out
	}
	inject("the client's datagrams replayed from its own address", srvDrops, client, server, payloads(toServer), DropReplay)
	inject("forgeries from the client's own address", srvDrops, client, server, forgeries(conv, 40), DropForged)
	inject("the server's datagrams replayed to the client", cliDrops, server, client, payloads(toClient), DropReplay)
	inject("forgeries to the client from the server's address", cliDrops, server, client, forgeries(conv, 40), DropForged)

	before := 0
	ch.view(func(s *stream) { before = s.got })
	eventually(t, "the streams go on", func() bool {
		got := 0
		ch.view(func(s *stream) {
			if s.err != nil {
				t.Fatalf("client stream: %v", s.err)
			}
			got = s.got
		})
		return got > before+200
	})
	if st := srv.Stats(); st.Sessions != 1 || st.Accepted != 1 || st.Migrated != 0 {
		t.Errorf("after the attack: %d sessions, %d accepted, %d migrations; want 1, 1, 0", st.Sessions, st.Accepted, st.Migrated)
	}
	sh.view(func() {
		if len(sh.disconnected) != 0 {
			t.Errorf("sessions ended: %v", sh.disconnected)
		}
	})
}
