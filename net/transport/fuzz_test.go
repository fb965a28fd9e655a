package transport

import (
	"net/netip"
	"testing"
	"time"

	"github.com/xtaci/kcp-go/v5"

	"rockstep/net/wire"
)

// kcpDatagrams returns the Data datagrams a peer's KCP sends for frames.
func kcpDatagrams(conv uint32, mtu int, frames ...[]byte) [][]byte {
	var out [][]byte
	k := kcp.NewKCP(conv, func(buf []byte, size int) {
		out = append(out, append([]byte{kindData}, buf[:size]...))
	})
	k.SetMtu(kcpMTU(mtu))
	k.NoDelay(1, 10, 2, 1)
	for _, f := range frames {
		k.Send(f)
	}
	k.Update()
	return out
}

// fuzzSeeds adds datagrams of every kind for a session conv, valid and not.
func fuzzSeeds(f *testing.F, conv uint32, connect []byte) {
	f.Add(appendHello(nil, nonceOf(1)), false)
	f.Add(appendHello(nil, nonceOf(1))[:30], false)
	f.Add(connect, false)
	f.Add(appendPing(nil, conv), true)
	f.Add(appendClose(nil, conv, CloseApp), true)
	f.Add(appendAccept(nil, nonceOf(1), conv), true)
	f.Add([]byte{}, true)
	f.Add([]byte{0xff, 0, 0, 0, 0}, true)
	big := make([]byte, wire.MaxFrame)
	for _, d := range kcpDatagrams(conv, LAN().MTU, []byte("hello"), big, []byte{1}) {
		f.Add(d, true)
		f.Add(d, false)
		f.Add(d[:len(d)/2], true)
	}
}

// FuzzServerPacket feeds arbitrary datagrams, from the address of an
// established session or from a stranger, to the server's per-datagram
// logic. It must not panic, must answer a stranger with no more bytes than
// it sent, must deliver only frames of at most wire.MaxFrame bytes, and must not
// make sessions without a valid cookie.
func FuzzServerPacket(f *testing.F) {
	member := netip.MustParseAddrPort("10.0.0.1:4000")
	stranger := netip.MustParseAddrPort("10.0.0.2:5000")
	setup := func(tb testing.TB) (*offlineServer, uint32) {
		o := newOffline(tb, LAN())
		o.cookies = newCookieJar([]byte("fixed fuzz secret")) // so seeds can carry valid cookies
		conv, _ := o.handshake(tb, t0, member, nonceOf(1))
		o.take()
		return o, conv
	}
	o, conv := setup(f)
	fuzzSeeds(f, conv, appendConnect(nil, nonceOf(2), o.cookies.make(stranger, func() []byte { n := nonceOf(2); return n[:] }(), window(t0))))

	f.Fuzz(func(t *testing.T, pkt []byte, fromMember bool) {
		o, _ := setup(t)
		from := stranger
		if fromMember {
			from = member
		}
		before := o.Stats()
		o.handlePacket(t0, from, pkt)
		o.tick(t0.Add(10 * time.Millisecond))
		after := o.Stats()
		if after.PacketsIn != before.PacketsIn+1 {
			t.Errorf("PacketsIn %d → %d", before.PacketsIn, after.PacketsIn)
		}
		for _, s := range o.take() {
			if s.to != member && len(s.pkt) > len(pkt) {
				t.Errorf("%d-byte reply to a %d-byte datagram from a stranger", len(s.pkt), len(pkt))
			}
		}
		for _, frames := range o.ev.messages {
			for _, fr := range frames {
				if len(fr) == 0 || len(fr) > wire.MaxFrame {
					t.Errorf("delivered a %d-byte frame", len(fr))
				}
			}
		}
		if after.Sessions > 2 || after.Accepted > 2 {
			t.Errorf("%d sessions, %d accepted after one datagram", after.Sessions, after.Accepted)
		}
	})
}

// clientLog records a fuzzed client's frames.
type clientLog struct{ frames [][]byte }

func (l *clientLog) Message(f []byte) { l.frames = append(l.frames, append([]byte(nil), f...)) }
func (l *clientLog) Tick(time.Time)   {}

// FuzzClientPacket feeds arbitrary datagrams to an established client. It
// must not panic and must deliver only frames of at most wire.MaxFrame bytes.
func FuzzClientPacket(f *testing.F) {
	const conv = 0x01020304
	fuzzSeeds(f, conv, appendConnect(nil, nonceOf(2), [cookieSize]byte{}))
	f.Fuzz(func(t *testing.T, pkt []byte, _ bool) {
		cfg, _ := LAN().withDefaults()
		c := &Client{cfg: cfg, server: netip.MustParseAddrPort("10.0.0.9:7777")}
		c.accept(conv, nonceOf(1), t0)
		var log clientLog
		c.handlePacket(t0, pkt, &log)
		c.tick(t0.Add(10 * time.Millisecond))
		for _, fr := range log.frames {
			if len(fr) == 0 || len(fr) > wire.MaxFrame {
				t.Errorf("delivered a %d-byte frame", len(fr))
			}
		}
	})
}
