package transport

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"testing"
	"time"

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
	s.writeTo = func(b []byte, to netip.AddrPort) {
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

// handshake runs Hello, Cookie, Connect for from and returns the conv
// accepted, or the Refuse reason.
func (o *offlineServer) handshake(tb testing.TB, now time.Time, from netip.AddrPort, nonce [nonceSize]byte) (conv uint32, refused byte) {
	tb.Helper()
	o.take()
	o.handlePacket(now, from, appendHello(nil, nonce))
	out := o.take()
	if len(out) != 1 || out[0].pkt[0] != kindCookie || out[0].to != from {
		tb.Fatalf("Hello from %v: got %d replies %v, want one Cookie", from, len(out), out)
	}
	var cookie [cookieSize]byte
	copy(cookie[:], out[0].pkt[1+nonceSize:])
	o.handlePacket(now, from, appendConnect(nil, nonce, cookie))
	out = o.take()
	if len(out) != 1 {
		tb.Fatalf("Connect from %v: got %d replies, want 1", from, len(out))
	}
	switch p := out[0].pkt; p[0] {
	case kindAccept:
		return binary.LittleEndian.Uint32(p[1+nonceSize:]), 0
	case kindRefuse:
		return 0, p[1+nonceSize]
	default:
		tb.Fatalf("Connect from %v: reply kind %d", from, p[0])
	}
	return 0, 0
}

func TestHandshakeOffline(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "127.0.0.1:5000")
	nonce := nonceOf(1)

	o.handlePacket(t0, from, appendHello(nil, nonce))
	out := o.take()
	if len(out) != 1 || len(out[0].pkt) != cookieLen || out[0].pkt[0] != kindCookie {
		t.Fatalf("Hello: got %v, want one %d-byte Cookie", out, cookieLen)
	}
	if got := o.Stats().Sessions; got != 0 {
		t.Fatalf("after Hello: %d sessions, want 0 (no state before the cookie)", got)
	}
	var cookie [cookieSize]byte
	copy(cookie[:], out[0].pkt[1+nonceSize:])
	connect := appendConnect(nil, nonce, cookie)

	o.handlePacket(t0.Add(time.Second), from, connect)
	out = o.take()
	if len(out) != 1 || out[0].pkt[0] != kindAccept || len(out[0].pkt) != acceptLen {
		t.Fatalf("Connect: got %v, want one Accept", out)
	}
	conv := binary.LittleEndian.Uint32(out[0].pkt[1+nonceSize:])
	if conv == 0 || len(o.ev.connected) != 1 || o.ev.connected[0] != ConnID(conv) {
		t.Fatalf("Connect: conv %d, Connected %v", conv, o.ev.connected)
	}

	// A repeated Connect (its Accept was lost) gets the same Accept and no
	// second session.
	o.handlePacket(t0.Add(2*time.Second), from, connect)
	out = o.take()
	if len(out) != 1 || binary.LittleEndian.Uint32(out[0].pkt[1+nonceSize:]) != conv {
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
}

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
	} {
		t.Run(tc.name, func(t *testing.T) {
			o.handlePacket(t0, from, tc.hello)
			for _, r := range o.take() {
				if len(r.pkt) > len(tc.hello) {
					t.Errorf("reply of %d bytes to a %d-byte Hello", len(r.pkt), len(tc.hello))
				}
			}
		})
	}
	if st := o.Stats(); st.Dropped[DropMalformed] != 2 || st.Cookies != 2 {
		t.Errorf("stats %+v: want 2 malformed (short, version), 2 cookies", st)
	}
}

func TestRateLimitOffline(t *testing.T) {
	cfg := LAN()
	cfg.HandshakeRate = 50
	o := newOffline(t, cfg)
	// 200 Hellos at one instant from one IP, many ports: one second's worth
	// is answered.
	for i := range 200 {
		o.handlePacket(t0, netip.AddrPortFrom(netip.MustParseAddr("192.0.2.7"), uint16(1000+i)), appendHello(nil, nonceOf(i)))
	}
	if st := o.Stats(); st.Cookies != 50 || st.Dropped[DropRate] != 150 {
		t.Fatalf("burst: %d cookies, %d rate drops; want 50, 150", st.Cookies, st.Dropped[DropRate])
	}
	// Another IP has its own bucket, unless the two hash alike (1 in 4096):
	// its Hello is answered, or dropped with the first IP's.
	other := netip.MustParseAddrPort("192.0.2.8:1000")
	o.handlePacket(t0, other, appendHello(nil, nonceOf(0)))
	// Half a second later, 25 more tokens.
	for i := range 40 {
		o.handlePacket(t0.Add(500*time.Millisecond), netip.AddrPortFrom(netip.MustParseAddr("192.0.2.7"), uint16(i)), appendHello(nil, nonceOf(i)))
	}
	st := o.Stats()
	if got := st.Cookies - 50; got < 25 || got > 26 {
		t.Errorf("after 0.5 s: %d more cookies, want 25 (+1 for the other IP)", got)
	}
	if st.Sessions != 0 {
		t.Errorf("%d sessions after Hellos only, want 0", st.Sessions)
	}
}

func TestLimitsOffline(t *testing.T) {
	cfg := LAN()
	cfg.MaxSessions = 3
	cfg.MaxPerIP = 2
	o := newOffline(t, cfg)
	tests := []struct {
		name string
		from string
		want byte // 0: accepted, else the Refuse reason
	}{
		{"first from A", "10.0.0.1:1", 0},
		{"second from A", "10.0.0.1:2", 0},
		{"third from A", "10.0.0.1:3", RefusePerIP},
		{"first from B", "10.0.0.2:1", 0},
		{"first from C, server full", "10.0.0.3:1", RefuseFull},
	}
	for i, tc := range tests {
		_, refused := o.handshake(t, t0, addr(t, tc.from), nonceOf(i))
		if refused != tc.want {
			t.Errorf("%s: refused %d, want %d", tc.name, refused, tc.want)
		}
	}
	if st := o.Stats(); st.Sessions != 3 || st.Dropped[DropOverLimit] != 2 {
		t.Errorf("stats %+v: want 3 sessions, 2 over_limit", st)
	}
	// Closing one of A's sessions makes room for A again.
	o.CloseConn(o.ev.connected[0], CloseApp)
	o.reap()
	if _, refused := o.handshake(t, t0, addr(t, "10.0.0.1:3"), nonceOf(99)); refused != 0 {
		t.Errorf("after a close: refused %d, want accepted", refused)
	}
}

func TestEstablishedDropsOffline(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "10.0.0.1:1")
	conv, _ := o.handshake(t, t0, from, nonceOf(1))
	other := addr(t, "10.0.0.1:2")

	seg := func(conv uint32, cmd, frg byte, payload int) []byte {
		b := []byte{kindData}
		b = binary.LittleEndian.AppendUint32(b, conv)
		b = append(b, cmd, frg, 128, 0)
		b = binary.LittleEndian.AppendUint32(b, 0) // ts
		b = binary.LittleEndian.AppendUint32(b, 0) // sn
		b = binary.LittleEndian.AppendUint32(b, 0) // una
		b = binary.LittleEndian.AppendUint32(b, uint32(payload))
		return append(b, make([]byte, payload)...)
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
		{"data too short for a conv", from, []byte{kindData, 1, 2}, DropMalformed},
		{"data for an unknown conv", from, seg(conv+1, 81, 0, 10), DropUnknownSession},
		{"data from another address", other, seg(conv, 81, 0, 10), DropWrongAddr},
		{"truncated segment", from, seg(conv, 81, 0, 10)[:20], DropMalformed},
		{"unknown command", from, seg(conv, 99, 0, 0), DropMalformed},
		{"too many fragments", from, seg(conv, 81, 200, 10), DropMalformed},
		{"empty push", from, seg(conv, 81, 0, 0), DropMalformed},
		{"segment over the MTU", from, seg(conv, 81, 0, 1180), DropOversize},
		{"ping with a tail", from, append(appendPing(nil, conv), 0), DropMalformed},
		{"close from another address", other, appendClose(nil, conv, 0), DropWrongAddr},
		{"datagram over the MTU", from, make([]byte, 1201), DropOversize},
		{"connect too short", from, appendConnect(nil, nonceOf(1), [cookieSize]byte{})[:20], DropMalformed},
		{"connect with a forged cookie", other, appendConnect(nil, nonceOf(1), [cookieSize]byte{1}), DropBadCookie},
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
				t.Errorf("all drops: +%d, want +1", got)
			}
			if after.Sessions != 1 {
				t.Errorf("%d sessions, want 1", after.Sessions)
			}
		})
	}
	if len(o.ev.disconnected) != 0 {
		t.Errorf("Disconnected %v: hostile datagrams must not end the session", o.ev.disconnected)
	}
	// The real peer's Close ends it.
	o.handlePacket(t0, from, appendClose(nil, conv, CloseApp))
	var ce *CloseError
	if why := o.ev.disconnected[ConnID(conv)]; !errors.As(why, &ce) || !ce.ByPeer || ce.Reason != CloseApp {
		t.Errorf("after Close: Disconnected %v, want closed by peer with reason %d", why, CloseApp)
	}
}

func TestTimeoutOffline(t *testing.T) {
	cfg := LAN()
	o := newOffline(t, cfg)
	from := addr(t, "10.0.0.1:1")
	conv, _ := o.handshake(t, t0, from, nonceOf(1))
	pings := 0
	for now := t0; now.Before(t0.Add(cfg.Timeout + 2*time.Second)); now = now.Add(cfg.Interval) {
		if now.Before(t0.Add(time.Second)) {
			o.handlePacket(now, from, appendPing(nil, conv)) // alive for 1 s, then silent
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
			if silent := now.Sub(t0.Add(time.Second)); silent < cfg.Timeout || silent > cfg.Timeout+2*cfg.Interval {
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
	conv, _ := o.handshake(t, t0, addr(t, "10.0.0.1:1"), nonceOf(1))
	c := ConnID(conv)
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
