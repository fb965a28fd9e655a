package transport

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/xtaci/kcp-go/v5"

	"rockstep/net/wire"
)

// These tests drive Server.handlePacket directly, with no socket: datagrams
// in, the server's replies captured, time passed as data.

// sent is one datagram a server wrote.
type sent struct {
	to  netip.AddrPort
	pkt []byte
}

// offlineServer is a server without a socket whose replies are recorded.
type offlineServer struct {
	*Server
	out []sent
	ev  *eventLog
}

// eventLog records a server handler's calls.
type eventLog struct {
	connected    []ConnID
	disconnected map[ConnID]error
	messages     map[ConnID][][]byte
}

func (e *eventLog) Connected(c ConnID, _ netip.AddrPort) { e.connected = append(e.connected, c) }
func (e *eventLog) Message(c ConnID, f []byte) {
	e.messages[c] = append(e.messages[c], append([]byte(nil), f...))
}
func (e *eventLog) Disconnected(c ConnID, why error) { e.disconnected[c] = why }
func (e *eventLog) Tick(time.Time)                   {}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func newOffline(tb testing.TB, cfg Config) *offlineServer {
	tb.Helper()
	cfg, err := cfg.withDefaults()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := newServer(cfg, t0)
	if err != nil {
		tb.Fatal(err)
	}
	o := &offlineServer{Server: s}
	o.ev = &eventLog{disconnected: map[ConnID]error{}, messages: map[ConnID][][]byte{}}
	s.h = o.ev
	s.writeTo = func(b []byte, _ netip.Addr, to netip.AddrPort) {
		o.out = append(o.out, sent{to, append([]byte(nil), b...)})
	}
	return o
}

// take returns and forgets the datagrams written so far.
func (o *offlineServer) take() []sent {
	out := o.out
	o.out = nil
	return out
}

func addr(tb testing.TB, s string) netip.AddrPort {
	tb.Helper()
	a, err := netip.ParseAddrPort(s)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

func nonceOf(i int) [nonceSize]byte {
	var n [nonceSize]byte
	binary.LittleEndian.PutUint64(n[:], uint64(i)*0x9e3779b97f4a7c15+1)
	return n
}

// testPeer is the client's end of a session an offlineServer made: it
// seals datagrams as the real client does and opens the server's.
type testPeer struct {
	conv uint32
	ch   *channel
	host []byte // the host key the server proved
	from netip.AddrPort
	kcp  *kcp.KCP
	segs [][]byte // KCP output not yet taken
}

// seal seals payload as a datagram of kind from the peer.
func (p *testPeer) seal(tb testing.TB, kind byte, payload []byte) []byte {
	tb.Helper()
	b, err := p.ch.seal(nil, kind, payload)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// data returns the sealed Data datagrams that carry frames.
func (p *testPeer) data(tb testing.TB, frames ...[]byte) [][]byte {
	tb.Helper()
	if p.kcp == nil {
		p.kcp = kcp.NewKCP(p.conv, func(buf []byte, size int) {
			p.segs = append(p.segs, append([]byte(nil), buf[:size]...))
		})
		p.kcp.SetMtu(kcpMTU(LAN().MTU))
		p.kcp.NoDelay(1, 10, 2, 1)
	}
	for _, f := range frames {
		p.kcp.Send(f)
	}
	// KCP flushes on Update at most once an interval (10 ms): wait for
	// it, boundedly, if the last flush was too recent.
	for i := 0; i < 100 && len(frames) > 0; i++ {
		p.kcp.Update()
		if len(p.segs) > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var out [][]byte
	for _, seg := range p.segs {
		out = append(out, p.seal(tb, kindData, seg))
	}
	p.segs = nil
	return out
}

// newStranger returns a peer that knows conv (it is in clear) but not the
// session's keys: an attacker on the path.
func newStranger(tb testing.TB, conv uint32) *testPeer {
	tb.Helper()
	key := make([]byte, keySize)
	_, _ = rand.Read(key)
	ch, err := newChannel(conv, key, key)
	if err != nil {
		tb.Fatal(err)
	}
	return &testPeer{conv: conv, ch: ch}
}

// sealAs seals payload as a datagram of kind for conv, with the peer's keys.
func (p *testPeer) sealAs(tb testing.TB, conv uint32, kind byte, payload []byte) []byte {
	tb.Helper()
	saved := p.ch.conv
	p.ch.conv = conv
	defer func() { p.ch.conv = saved }()
	return p.seal(tb, kind, payload)
}

// open opens a datagram the server sent the peer; ok is false if it does
// not open (or is a replay).
func (p *testPeer) open(pkt []byte) (kind byte, payload []byte, ok bool) {
	if len(pkt) == 0 || !sealedKind(pkt[0]) {
		return 0, nil, false
	}
	if c, _ := convOf(pkt); c != p.conv {
		return 0, nil, false
	}
	plain, _, r := p.ch.open(nil, pkt)
	return pkt[0], plain, r == openOK
}

// handshake runs Hello, Cookie, Connect, Accept for from and returns the
// client's end of the session accepted, or the Refuse reason.
func (o *offlineServer) handshake(tb testing.TB, now time.Time, from netip.AddrPort, _ [nonceSize]byte) (peer *testPeer, refused byte) {
	tb.Helper()
	hs, err := newClientHandshake("")
	if err != nil {
		tb.Fatal(err)
	}
	o.take()
	o.handlePacket(now, from, hs.pkt)
	out := o.take()
	if len(out) != 1 || out[0].pkt[0] != kindCookie || out[0].to != from {
		tb.Fatalf("Hello from %v: got %d replies %v, want one Cookie", from, len(out), out)
	}
	if est, err := hs.receive(out[0].pkt); est != nil || err != nil || !hs.cookie {
		tb.Fatalf("Cookie: %v, %v", est, err)
	}
	o.handlePacket(now, from, hs.pkt)
	out = o.take()
	if len(out) != 1 {
		tb.Fatalf("Connect from %v: got %d replies, want 1", from, len(out))
	}
	est, err := hs.receive(out[0].pkt)
	var re *RefusedError
	switch {
	case errors.As(err, &re):
		return nil, re.Reason
	case err != nil || est == nil:
		tb.Fatalf("Connect from %v: reply kind %d: %v", from, out[0].pkt[0], err)
	}
	return &testPeer{conv: est.conv, ch: est.ch, host: est.hostPub, from: from}, 0
}

func TestHandshakeOffline(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "127.0.0.1:5000")
	hs, err := newClientHandshake(o.key.Fingerprint())
	if err != nil {
		t.Fatal(err)
	}
	hello := hs.pkt

	o.handlePacket(t0, from, hello)
	out := o.take()
	if len(out) != 1 || len(out[0].pkt) != cookieLen || out[0].pkt[0] != kindCookie {
		t.Fatalf("Hello: got %v, want one %d-byte Cookie", out, cookieLen)
	}
	if got := o.Stats().Sessions; got != 0 {
		t.Fatalf("after Hello: %d sessions, want 0 (no state before the cookie)", got)
	}
	if _, err := hs.receive(out[0].pkt); err != nil || !hs.cookie {
		t.Fatalf("Cookie not taken: %v", err)
	}
	connect := hs.pkt
	if len(connect) < acceptLen {
		t.Fatalf("Connect of %d bytes asks for a %d-byte Accept", len(connect), acceptLen)
	}

	o.handlePacket(t0.Add(time.Second), from, connect)
	out = o.take()
	if len(out) != 1 || out[0].pkt[0] != kindAccept || len(out[0].pkt) != acceptLen {
		t.Fatalf("Connect: got %v, want one Accept", out)
	}
	accept := out[0].pkt
	est, err := hs.receive(accept)
	if err != nil || est == nil {
		t.Fatalf("Accept: %v, %v; want a session", est, err)
	}
	if est.conv == 0 || len(o.ev.connected) != 1 || o.ev.connected[0] != ConnID(est.conv) {
		t.Fatalf("Connect: conv %d, Connected %v", est.conv, o.ev.connected)
	}
	if fp := Fingerprint(est.hostPub); fp != o.key.Fingerprint() {
		t.Errorf("the Accept proves host key %s, the server's is %s", fp, o.key.Fingerprint())
	}

	// A repeated Connect (its Accept was lost) gets the same Accept and no
	// second session.
	o.handlePacket(t0.Add(2*time.Second), from, connect)
	out = o.take()
	if len(out) != 1 || string(out[0].pkt) != string(accept) {
		t.Fatalf("repeated Connect: got %v, want the same Accept", out)
	}
	if st := o.Stats(); st.Sessions != 1 || st.Accepted != 1 || len(o.ev.connected) != 1 {
		t.Fatalf("repeated Connect: %+v, Connected %v; want one session", st, o.ev.connected)
	}

	// The same Connect from another port is not valid there.
	o.handlePacket(t0.Add(2*time.Second), addr(t, "127.0.0.1:5001"), connect)
	if out := o.take(); len(out) != 0 || o.Stats().Dropped[DropBadCookie] != 1 {
		t.Fatalf("Connect from another port: replies %v, stats %+v; want a bad_cookie drop", out, o.Stats())
	}

	// A cookie lives 10 to 20 s.
	o.handlePacket(t0.Add(25*time.Second), from, connect)
	if out := o.take(); len(out) != 0 || o.Stats().Dropped[DropBadCookie] != 2 {
		t.Fatalf("stale Connect: replies %v, stats %+v; want a bad_cookie drop", out, o.Stats())
	}

	// Both ends hold the same keys: what one seals the other opens, once.
	peer := &testPeer{conv: est.conv, ch: est.ch}
	ping := peer.seal(t, kindDgram, []byte("turn 1"))
	o.handlePacket(t0.Add(2*time.Second), from, ping)
	if got := o.ev.messages[ConnID(est.conv)]; len(got) != 1 || string(got[0]) != "turn 1" {
		t.Fatalf("sealed datagram: delivered %q, want [turn 1]", got)
	}
	o.handlePacket(t0.Add(2*time.Second), from, ping)
	if st := o.Stats(); st.Dropped[DropReplay] != 1 || len(o.ev.messages[ConnID(est.conv)]) != 1 {
		t.Fatalf("the same datagram again: stats %+v; want a replay drop and nothing delivered", st)
	}
	if err := o.SendDatagram(ConnID(est.conv), []byte("master 1")); err != nil {
		t.Fatal(err)
	}
	out = o.take()
	if len(out) != 1 {
		t.Fatalf("SendDatagram: %d datagrams", len(out))
	}
	if kind, payload, ok := peer.open(out[0].pkt); !ok || kind != kindDgram || string(payload) != "master 1" {
		t.Fatalf("the client opens %d %q %v, want the datagram", kind, payload, ok)
	}
}

// offlineHandshake runs a client's handshake expecting the host key expect
// against an offline server with cfg, and returns what the client made of
// the Accept: a session, or why not.
func offlineHandshake(t *testing.T, cfg Config, expect string) (*established, error) {
	t.Helper()
	o := newOffline(t, cfg)
	from := addr(t, "10.0.0.1:4000")
	hs, err := newClientHandshake(expect)
	if err != nil {
		t.Fatal(err)
	}
	var est *established
	for range 2 {
		o.handlePacket(t0, from, hs.pkt)
		for _, r := range o.take() {
			if est, err = hs.receive(r.pkt); est != nil || err != nil {
				break
			}
		}
	}
	return est, err
}

// TestHandshakeHostKey: a client that expects another host key refuses the
// server at its Accept; one that expects this key, or none, takes it.
func TestHandshakeHostKey(t *testing.T) {
	key, other := newHostKey(t), newHostKey(t)
	cfg := LAN()
	cfg.HostKey = key
	for _, tc := range []struct {
		name   string
		expect string
		want   error
	}{
		{"expecting this key", key.Fingerprint(), nil},
		{"expecting no key", "", nil},
		{"expecting another key", other.Fingerprint(), ErrHostKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est, err := offlineHandshake(t, cfg, tc.expect)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (est != nil) {
				t.Fatalf("handshake: %v, %v; want error %v", est, err, tc.want)
			}
			var hk *HostKeyError
			if tc.want != nil && (!errors.As(err, &hk) || hk.Got != key.Fingerprint() || hk.Want != other.Fingerprint()) {
				t.Errorf("error %v: want it to name both fingerprints", err)
			}
		})
	}
}

// TestAcceptForged: an Accept whose signature does not verify, or that an
// impostor signed for another transcript, makes no session.
func TestAcceptForged(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "10.0.0.1:4000")
	hs, err := newClientHandshake("")
	if err != nil {
		t.Fatal(err)
	}
	o.handlePacket(t0, from, hs.pkt)
	if _, err := hs.receive(o.take()[0].pkt); err != nil {
		t.Fatal(err)
	}
	o.handlePacket(t0, from, hs.pkt)
	accept := o.take()[0].pkt
	for i := range accept {
		if i < 1+nonceSize {
			continue // the kind and nonce only route it
		}
		bad := append([]byte(nil), accept...)
		bad[i] ^= 0x10
		if est, err := hs.receive(bad); est != nil || err != nil {
			t.Fatalf("Accept with byte %d flipped: %v, %v; want it ignored", i, est, err)
		}
	}
	if est, err := hs.receive(accept); est == nil || err != nil {
		t.Fatalf("the real Accept: %v, %v", est, err)
	}
}

// TestHandshakeRepliesNeverLarger: before a cookie comes back, no reply is
// larger than the datagram it answers; nor, after it, is the Accept larger
// than its Connect.
func TestHandshakeRepliesNeverLarger(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "10.0.0.1:1")
	for _, tc := range []struct {
		name  string
		hello []byte
	}{
		{"minimal", appendHello(nil, nonceOf(1))},
		{"long", append(appendHello(nil, nonceOf(2)), make([]byte, 500)...)},
		{"unknown version", func() []byte { h := appendHello(nil, nonceOf(3)); h[1] = 99; return h }()},
		{"one byte short", appendHello(nil, nonceOf(4))[:helloSize-1]},
		{"a connect with no cookie", appendConnect(nil, nonceOf(5), [cookieSize]byte{}, make([]byte, keySize))},
		{"a sealed datagram for no session", make([]byte, sealedOverhead+8)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o.handlePacket(t0, from, tc.hello)
			for _, r := range o.take() {
				if len(r.pkt) > len(tc.hello) {
					t.Errorf("reply of %d bytes to a %d-byte datagram", len(r.pkt), len(tc.hello))
				}
			}
		})
	}
	if st := o.Stats(); st.Dropped[DropMalformed] != 3 || st.Cookies != 2 {
		t.Errorf("stats %+v: want 3 malformed (short, version, sealed kind 0), 2 cookies", st)
	}
	peer, _ := o.handshake(t, t0, addr(t, "10.0.0.2:1"), nonceOf(9))
	if peer == nil {
		t.Fatal("no session")
	}
	if connectSize < acceptLen {
		t.Errorf("a %d-byte Connect gets a %d-byte Accept", connectSize, acceptLen)
	}
}

func TestRateLimitOffline(t *testing.T) {
	cfg := LAN()
	cfg.CookieRate, cfg.MaxCookieRate = 50, 500
	o := newOffline(t, cfg)
	victim := netip.MustParseAddrPort("192.0.2.7:4000")
	// 200 Hellos at one instant from one address and port: one second's
	// worth is answered.
	for i := range 200 {
		o.handlePacket(t0, victim, appendHello(nil, nonceOf(i)))
	}
	if st := o.Stats(); st.Cookies != 50 || st.Dropped[DropRate] != 150 {
		t.Fatalf("burst: %d cookies, %d rate drops; want 50, 150", st.Cookies, st.Dropped[DropRate])
	}
	// Half a second later, 25 more tokens.
	for i := range 40 {
		o.handlePacket(t0.Add(500*time.Millisecond), victim, appendHello(nil, nonceOf(i)))
	}
	if got := o.Stats().Cookies - 50; got != 25 {
		t.Errorf("after 0.5 s: %d more cookies, want 25", got)
	}

	// A flood spoofed from the same address's other ports (a spoofer does
	// not know which port the victim dials from) does not lock the
	// victim's own socket out: only the total caps it.
	o = newOffline(t, cfg)
	for i := range 2000 {
		o.handlePacket(t0, netip.AddrPortFrom(victim.Addr(), uint16(10000+i)), appendHello(nil, nonceOf(i)))
	}
	st := o.Stats()
	if st.Cookies != 500 || st.Dropped[DropRate] != 1500 {
		t.Fatalf("spoofed flood: %d cookies, %d rate drops; want the total's 500, 1500", st.Cookies, st.Dropped[DropRate])
	}
	o.handlePacket(t0.Add(100*time.Millisecond), victim, appendHello(nil, nonceOf(1)))
	if got := o.Stats().Cookies - st.Cookies; got != 1 {
		t.Errorf("the victim's own Hello 0.1 s after the flood: %d cookies, want 1", got)
	}
	if st.Sessions != 0 {
		t.Errorf("%d sessions after Hellos only, want 0", st.Sessions)
	}

	// Connects (with valid cookies) are limited per /24.
	cfg = LAN()
	cfg.HandshakeRate = 3
	o = newOffline(t, cfg)
	for i := range 3 {
		if _, refused := o.handshake(t, t0, netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, 1, byte(i + 1)}), 4000), nonceOf(i)); refused != 0 {
			t.Fatalf("connect %d: refused %d", i, refused)
		}
	}
	// A newcomer to the /24 has a rate of its own (HandshakeRate/5, at
	// least 1) once the network's is spent: one more, then no more.
	if _, refused := o.handshake(t, t0, addr(t, "10.1.1.98:4000"), nonceOf(5)); refused != 0 {
		t.Fatalf("a newcomer's Connect: refused %d", refused)
	}
	hs, err := newClientHandshake("")
	if err != nil {
		t.Fatal(err)
	}
	from := netip.MustParseAddrPort("10.1.1.99:4000")
	o.handlePacket(t0, from, hs.pkt)
	if _, err := hs.receive(o.take()[0].pkt); err != nil {
		t.Fatal(err)
	}
	o.handlePacket(t0, from, hs.pkt)
	if out, st := o.take(), o.Stats(); len(out) != 0 || st.Dropped[DropRate] != 1 || st.Sessions != 4 {
		t.Errorf("a fifth Connect from 10.1.1.0/24 in one instant: replies %v, stats %+v; want a rate drop", out, st)
	}
	if _, refused := o.handshake(t, t0, addr(t, "10.1.2.1:4000"), nonceOf(9)); refused != 0 {
		t.Errorf("a Connect from another /24: refused %d", refused)
	}
}

// limitConfig allows 5 sessions, 2 an address and 3 a /24.
func limitConfig() Config {
	cfg := LAN()
	cfg.MaxSessions = 5
	cfg.MaxPerIP = 2
	cfg.MaxPerSubnet = 3
	return cfg
}

// limitCases connect, in order, to a server with limitConfig: each is
// accepted (want 0) or refused for the reason want. The addresses are on
// loopback, so that TestLimits can make them over real sockets as
// TestLimitsOffline does in memory; 3 are refused and 5 sessions stay.
var limitCases = []struct {
	name string
	from string // the client's IP address
	want byte
}{
	{"first from A", "127.0.0.1", 0},
	{"second from A", "127.0.0.1", 0},
	{"third from A", "127.0.0.1", RefusePerIP},
	{"first from B, A's /24", "127.0.0.2", 0},
	{"first from C, A's /24 is full", "127.0.0.3", RefusePerIP},
	{"first from D, another /24", "127.0.1.1", 0},
	{"first from E, a third /24", "127.0.2.1", 0},
	{"first from F, server full", "127.0.3.1", RefuseFull},
}

func TestLimitsOffline(t *testing.T) {
	cfg := limitConfig()
	o := newOffline(t, cfg)
	for i, tc := range limitCases {
		from := netip.AddrPortFrom(netip.MustParseAddr(tc.from), uint16(1000+i))
		if _, refused := o.handshake(t, t0, from, nonceOf(i)); refused != tc.want {
			t.Errorf("%s: refused %d, want %d", tc.name, refused, tc.want)
		}
	}
	if st := o.Stats(); st.Sessions != 5 || st.Dropped[DropOverLimit] != 3 {
		t.Errorf("stats %+v: want 5 sessions, 3 over_limit", st)
	}
	// Closing one of A's sessions makes room for A again.
	o.CloseConn(o.ev.connected[0], CloseApp)
	o.reap()
	if _, refused := o.handshake(t, t0, addr(t, "127.0.0.1:3000"), nonceOf(99)); refused != 0 {
		t.Errorf("after a close: refused %d, want accepted", refused)
	}

	o = newOffline(t, cfg)
	for i := range 3 {
		if _, refused := o.handshake(t, t0, netip.AddrPortFrom(netip.MustParseAddr(fmt.Sprintf("2001:db8::%x", i+1)), 1), nonceOf(i)); i < 3 && refused != 0 {
			t.Fatalf("IPv6 %d: refused %d", i, refused)
		}
	}
	if _, refused := o.handshake(t, t0, addr(t, "[2001:db8::ffff:1]:1"), nonceOf(7)); refused != RefusePerIP {
		t.Errorf("a fourth address of one /64: refused %d, want %d", refused, RefusePerIP)
	}
}

func TestEstablishedDropsOffline(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "10.0.0.1:1")
	peer, _ := o.handshake(t, t0, from, nonceOf(1))
	conv := peer.conv
	other := addr(t, "10.0.0.1:2")
	// A stranger who knows the conv (it is in clear) but not the keys.
	stranger := newStranger(t, conv)

	seg := func(conv uint32, cmd, frg byte, payload int) []byte {
		b := binary.LittleEndian.AppendUint32(nil, conv)
		b = append(b, cmd, frg, 128, 0)
		b = binary.LittleEndian.AppendUint32(b, 0) // ts
		b = binary.LittleEndian.AppendUint32(b, 0) // sn
		b = binary.LittleEndian.AppendUint32(b, 0) // una
		b = binary.LittleEndian.AppendUint32(b, uint32(payload))
		return append(b, make([]byte, payload)...)
	}
	valid := peer.seal(t, kindDgram, []byte("a turn"))
	tampered := func(i int) []byte {
		b := append([]byte(nil), peer.seal(t, kindDgram, []byte("a turn"))...)
		b[i] ^= 1
		return b
	}
	tests := []struct {
		name string
		from netip.AddrPort
		pkt  []byte
		want DropReason
	}{
		{"empty", from, nil, DropMalformed},
		{"unknown kind", from, []byte{0xee, 1, 2, 3, 4, 5}, DropMalformed},
		{"cookie from a client", from, make([]byte, cookieLen), DropMalformed},
		{"sealed kind too short for a tag", from, []byte{kindData, 1, 2}, DropMalformed},
		{"data for an unknown conv", from, stranger.sealAs(t, conv+1, kindData, seg(conv+1, 81, 0, 10)), DropUnknownSession},
		{"data with the right conv, the wrong key", other, stranger.sealAs(t, conv, kindData, seg(conv, 81, 0, 10)), DropForged},
		{"ping with the right conv, the wrong key", from, stranger.sealAs(t, conv, kindPing, nil), DropForged},
		{"close with the right conv, the wrong key", from, stranger.sealAs(t, conv, kindClose, []byte{CloseNormal}), DropForged},
		{"a valid datagram, its kind changed", from, func() []byte { b := tampered(0); b[0] = kindPing; return b }(), DropForged},
		{"a valid datagram, its sequence changed", from, tampered(6), DropForged},
		{"a valid datagram, its payload changed", from, tampered(sealHead), DropForged},
		{"a valid datagram, its tag changed", from, tampered(len(valid) - 1), DropForged},
		{"truncated segment", from, peer.seal(t, kindData, seg(conv, 81, 0, 10)[:20]), DropMalformed},
		{"unknown command", from, peer.seal(t, kindData, seg(conv, 99, 0, 0)), DropMalformed},
		{"too many fragments", from, peer.seal(t, kindData, seg(conv, 81, 200, 10)), DropMalformed},
		{"empty push", from, peer.seal(t, kindData, seg(conv, 81, 0, 0)), DropMalformed},
		{"segment over the MTU", from, make([]byte, 1201), DropOversize},
		{"ping with a payload", from, peer.seal(t, kindPing, []byte{0}), DropMalformed},
		{"empty datagram", from, peer.seal(t, kindDgram, nil), DropMalformed},
		{"connect too short", from, appendConnect(nil, nonceOf(1), [cookieSize]byte{}, make([]byte, keySize))[:20], DropMalformed},
		{"connect with a forged cookie", other, appendConnect(nil, nonceOf(1), [cookieSize]byte{1}, make([]byte, keySize)), DropBadCookie},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := o.Stats()
			o.handlePacket(t0, tc.from, tc.pkt)
			after := o.Stats()
			if got := after.Dropped[tc.want] - before.Dropped[tc.want]; got != 1 {
				t.Errorf("%s drops: +%d, want +1", tc.want, got)
			}
			if got := after.TotalDropped() - before.TotalDropped(); got != 1 {
				t.Errorf("all drops: +%d, want +1 (%v)", got, after.Dropped)
			}
			if after.Sessions != 1 {
				t.Errorf("%d sessions, want 1", after.Sessions)
			}
		})
	}
	if len(o.ev.disconnected) != 0 || len(o.ev.messages) != 0 {
		t.Errorf("Disconnected %v, messages %v: hostile datagrams must not end the session or deliver anything", o.ev.disconnected, o.ev.messages)
	}
	// The real peer's datagram, then the same again: a replay.
	o.handlePacket(t0, from, valid)
	o.handlePacket(t0, other, valid)
	if st := o.Stats(); st.Dropped[DropReplay] != 1 || len(o.ev.messages[ConnID(conv)]) != 1 {
		t.Errorf("a datagram and its replay: %d replay drops, %d delivered; want 1, 1", st.Dropped[DropReplay], len(o.ev.messages[ConnID(conv)]))
	}
	// The real peer's Close ends it.
	o.handlePacket(t0, from, peer.seal(t, kindClose, []byte{CloseApp}))
	var ce *CloseError
	if why := o.ev.disconnected[ConnID(conv)]; !errors.As(why, &ce) || !ce.ByPeer || ce.Reason != CloseApp {
		t.Errorf("after Close: Disconnected %v, want closed by peer with reason %d", why, CloseApp)
	}
}

// TestMigrationOffline: the session follows its peer to a new address on
// the peer's newest datagram from there, once the old address has been
// quiet for twice the heartbeat and the new one has answered a challenge
// from there, and only then; replies go there.
func TestMigrationOffline(t *testing.T) {
	cfg := LAN()
	o := newOffline(t, cfg)
	home := addr(t, "10.0.0.1:4000")
	peer, _ := o.handshake(t, t0, home, nonceOf(1))
	c := ConnID(peer.conv)
	first := peer.seal(t, kindDgram, []byte("1"))
	second := peer.seal(t, kindDgram, []byte("2"))
	third := peer.seal(t, kindDgram, []byte("3"))
	o.handlePacket(t0, home, first)
	repliesGo := func(when string, want netip.AddrPort) {
		t.Helper()
		o.take()
		if err := o.SendDatagram(c, []byte("a")); err != nil {
			t.Fatal(err)
		}
		if out := o.take(); len(out) != 1 || out[0].to != want {
			t.Fatalf("%s, replies go to %v, want %v", when, out, want)
		}
	}

	// An older datagram arriving late from elsewhere does not move the
	// session (a copy an attacker captured and sent from its own address
	// cannot win over the peer's newer datagrams).
	roamed := addr(t, "10.0.0.9:5000")
	o.handlePacket(t0, home, third)
	o.handlePacket(t0, roamed, second)
	repliesGo("after a late datagram from elsewhere", home)
	// Nor does the newest datagram, raced from elsewhere, while the peer
	// is still heard at home: it is delivered (it is the peer's), but the
	// answers stay home.
	raced := peer.seal(t, kindDgram, []byte("4"))
	now := t0.Add(cfg.Heartbeat)
	o.handlePacket(now, roamed, raced)
	o.handlePacket(now, home, raced) // the original, now a replay
	repliesGo("after a raced copy from elsewhere", home)
	// The peer's newest datagram from a new address, home quiet for twice
	// the heartbeat: the new address is challenged, and nothing else goes
	// there until it answers.
	now = now.Add(2 * cfg.Heartbeat)
	o.take()
	o.handlePacket(now, roamed, peer.seal(t, kindDgram, []byte("5")))
	out := o.take()
	if len(out) != 1 || out[0].to != roamed {
		t.Fatalf("after the peer's datagram from a new address: sent %v, want one challenge to %v", out, roamed)
	}
	kind, challenge, ok := peer.open(out[0].pkt)
	if !ok || kind != kindChallenge || len(challenge) != challengeSize {
		t.Fatalf("sent kind %d, %d bytes (opens: %v), want a %d-byte challenge", kind, len(challenge), ok, challengeSize)
	}
	repliesGo("before the new address answered", home)
	// An answer from elsewhere than the challenge went proves nothing.
	o.handlePacket(now, addr(t, "10.0.0.10:5000"), peer.seal(t, kindResponse, challenge))
	repliesGo("after an answer from a third address", home)
	// The answer from there: the session moves.
	o.handlePacket(now, roamed, peer.seal(t, kindResponse, challenge))
	repliesGo("after the peer roamed", roamed)
	if st := o.Stats(); st.Migrated != 1 || st.Sessions != 1 || len(o.ev.messages[c]) != 5 || st.Challenges != 1 || st.Dropped[DropPath] != 1 {
		t.Errorf("stats %+v, %d delivered; want one migration, one session, 5 delivered, one challenge, one path drop", st, len(o.ev.messages[c]))
	}
	// The per-address counts moved with it.
	if o.perIP[home.Addr()] != 0 || o.perIP[roamed.Addr()] != 1 {
		t.Errorf("per-IP counts %v", o.perIP)
	}
}

func TestTimeoutOffline(t *testing.T) {
	cfg := LAN()
	o := newOffline(t, cfg)
	from := addr(t, "10.0.0.1:1")
	peer, _ := o.handshake(t, t0, from, nonceOf(1))
	conv := peer.conv
	pings := 0
	for now := t0; now.Before(t0.Add(cfg.Timeout + 2*time.Second)); now = now.Add(cfg.Interval) {
		if now.Before(t0.Add(time.Second)) {
			o.handlePacket(now, from, peer.seal(t, kindPing, nil)) // alive for 1 s, then silent
		}
		o.tick(now)
		for _, s := range o.take() {
			if s.pkt[0] == kindPing {
				pings++
			}
		}
		if why, ok := o.ev.disconnected[ConnID(conv)]; ok {
			if !errors.Is(why, ErrTimeout) {
				t.Fatalf("Disconnected %v, want ErrTimeout", why)
			}
			// Sessions are swept for timeouts every sweepTicks ticks.
			if silent := now.Sub(t0.Add(time.Second)); silent < cfg.Timeout || silent > cfg.Timeout+(sweepTicks+1)*cfg.Interval {
				t.Errorf("timed out after %v of silence, want %v", silent, cfg.Timeout)
			}
			if want := int((cfg.Timeout + time.Second) / cfg.Heartbeat); pings < want-2 || pings > want+2 {
				t.Errorf("%d heartbeats sent, want about %d", pings, want)
			}
			return
		}
	}
	t.Fatal("no timeout")
}

func TestConfigDefaults(t *testing.T) {
	got, err := Config{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := LAN()
	want.NoDelay, want.NoCongestion, want.FastResend = false, false, 0
	if got != want {
		t.Errorf("zero config: got %+v, want LAN() numbers %+v", got, want)
	}
	for _, tc := range []struct {
		name string
		mod  func(*Config)
	}{
		{"interval too short", func(c *Config) { c.Interval = time.Millisecond }},
		{"MTU too small", func(c *Config) { c.MTU = 100 }},
		{"MTU too large", func(c *Config) { c.MTU = 9000 }},
		{"window too small for a frame", func(c *Config) { c.RecvWindow = 1 }},
		{"timeout not over heartbeat", func(c *Config) { c.Timeout = c.Heartbeat }},
		{"queue under a frame", func(c *Config) { c.MaxQueue = 100 }},
		{"cookie total under the per-source rate", func(c *Config) { c.MaxCookieRate = c.CookieRate - 1 }},
		{"handshake total under the per-network rate", func(c *Config) { c.MaxHandshakeRate = c.HandshakeRate - 1 }},
		{"a fingerprint that is none", func(c *Config) { c.HostFingerprint = "not hex" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := LAN()
			tc.mod(&cfg)
			if _, err := cfg.withDefaults(); !errors.Is(err, ErrBadConfig) {
				t.Errorf("got %v, want ErrBadConfig", err)
			}
		})
	}
}

func TestSendBoundsOffline(t *testing.T) {
	cfg := LAN()
	cfg.MaxQueue = 8 << 10
	o := newOffline(t, cfg)
	peer, _ := o.handshake(t, t0, addr(t, "10.0.0.1:1"), nonceOf(1))
	c := ConnID(peer.conv)
	tests := []struct {
		name  string
		frame []byte
		want  error
		drop  DropReason
	}{
		{"empty", nil, ErrFrameSize, -1},
		{"over MaxFrame", make([]byte, wire.MaxFrame+1), ErrFrameSize, DropOversize},
		{"MaxFrame", make([]byte, wire.MaxFrame), nil, -1},
		{"unknown conn", []byte{1}, ErrUnknownConn, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := o.Stats()
			to := c
			if tc.want == ErrUnknownConn {
				to = c + 1
			}
			if err := o.Send(to, tc.frame); !errors.Is(err, tc.want) {
				t.Errorf("Send: %v, want %v", err, tc.want)
			}
			after := o.Stats()
			if tc.drop >= 0 && after.Dropped[tc.drop] != before.Dropped[tc.drop]+1 {
				t.Errorf("%s drops: %d → %d, want +1", tc.drop, before.Dropped[tc.drop], after.Dropped[tc.drop])
			}
		})
	}
	// No acknowledgements come back: the queue fills at MaxQueue bytes.
	sentBytes := o.Queued(c)
	for range 100 {
		if err := o.Send(c, make([]byte, 1000)); err != nil {
			if !errors.Is(err, ErrQueueFull) {
				t.Fatalf("Send: %v, want ErrQueueFull", err)
			}
			break
		}
		sentBytes += 1000
	}
	if q := o.Queued(c); q != sentBytes || q > cfg.MaxQueue || q+1000 <= cfg.MaxQueue {
		t.Errorf("queued %d bytes (sent %d), want just under MaxQueue %d", q, sentBytes, cfg.MaxQueue)
	}
	if got := o.Stats().Dropped[DropQueueFull]; got != 1 {
		t.Errorf("%d queue_full drops, want 1", got)
	}
}
