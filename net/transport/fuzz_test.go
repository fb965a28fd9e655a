package transport

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/xtaci/kcp-go/v5"

	"rockstep/net/wire"
)

// Fixed keys, so that the datagrams sealed for the seeds open in every run
// of a fuzz target.
var (
	fuzzC2S = bytes.Repeat([]byte{0xc2}, keySize)
	fuzzS2C = bytes.Repeat([]byte{0x52}, keySize)
)

const fuzzConv = 0x01020304

// fuzzChannels returns the client's and the server's ends of a session
// under the fixed keys.
func fuzzChannels(tb testing.TB) (client, server *channel) {
	tb.Helper()
	client, err := newChannel(fuzzConv, fuzzC2S, fuzzS2C)
	if err != nil {
		tb.Fatal(err)
	}
	server, err = newChannel(fuzzConv, fuzzS2C, fuzzC2S)
	if err != nil {
		tb.Fatal(err)
	}
	return client, server
}

// sealedSeeds returns datagrams of every kind, sealed by ch (valid for
// its peer) and spoiled in every way a forger or the network might.
func sealedSeeds(tb testing.TB, ch *channel, mtu int) [][]byte {
	tb.Helper()
	seal := func(kind byte, payload []byte) []byte {
		b, err := ch.seal(nil, kind, payload)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	var out [][]byte
	k := kcp.NewKCP(ch.conv, func(buf []byte, size int) {
		out = append(out, seal(kindData, buf[:size]))
	})
	k.SetMtu(kcpMTU(mtu))
	k.NoDelay(1, 10, 2, 1)
	for _, f := range [][]byte{[]byte("hello"), make([]byte, wire.MaxFrame), {1}} {
		k.Send(f)
	}
	k.Update()
	out = append(out,
		seal(kindPing, nil),
		seal(kindClose, []byte{CloseApp}),
		seal(kindDgram, []byte("a turn")),
		seal(kindPing, []byte{1}), // valid seal, malformed payload
	)
	n := len(out)
	for _, p := range out[:n] {
		flipped := append([]byte(nil), p...)
		flipped[len(flipped)-1] ^= 1
		out = append(out, p[:len(p)/2], flipped)
	}
	return append(out, []byte{}, []byte{kindPing, 4, 3, 2, 1}, make([]byte, sealedOverhead))
}

// FuzzOpen is the encrypted datagram decoder: arbitrary bytes opened by a
// session's channel. It must not panic, and whatever opens must be exactly
// the datagram the peer would seal for that kind, sequence number and
// payload; the same datagram never opens twice.
func FuzzOpen(f *testing.F) {
	client, _ := fuzzChannels(f)
	for _, s := range sealedSeeds(f, client, LAN().MTU) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pkt []byte) {
		_, server := fuzzChannels(t)
		if len(pkt) >= 5 {
			pkt = append([]byte(nil), pkt...)
			binary.LittleEndian.PutUint32(pkt[1:], fuzzConv) // the caller checks the conv
		}
		in := append([]byte(nil), pkt...)
		plain, _, res := server.open(nil, pkt)
		if !bytes.Equal(in, pkt) {
			t.Fatalf("open modified its input")
		}
		if res != openOK {
			if plain != nil {
				t.Errorf("result %d with a payload", res)
			}
			return
		}
		seq := binary.LittleEndian.Uint32(pkt[5:9])
		resealer, _ := fuzzChannels(t)
		resealer.seq = seq - 1
		again, err := resealer.seal(nil, pkt[0], plain)
		if err != nil || !bytes.Equal(again, pkt) {
			t.Errorf("opened %x, which the peer would seal as %x", pkt, again)
		}
		if _, _, res := server.open(nil, pkt); res != openReplay {
			t.Errorf("the same datagram opened again: result %d, want a replay", res)
		}
	})
}

// fuzzServer returns a server holding one session, with member at the
// fixed keys.
func fuzzServer(tb testing.TB, member netip.AddrPort) *offlineServer {
	tb.Helper()
	o := newOffline(tb, LAN())
	o.cookies = newCookieJar([]byte("fixed fuzz secret")) // so seeds can carry valid cookies
	_, server := fuzzChannels(tb)
	o.open(t0, member, fuzzConv, server)
	return o
}

// FuzzServerPacket feeds arbitrary datagrams, from the address of an
// established session or from a stranger, to the server's per-datagram
// logic. It must not panic, must answer a stranger with no more bytes than
// it sent, must deliver only frames of at most wire.MaxFrame bytes and only
// from datagrams the session's peer sealed, and must not make sessions
// without a valid cookie.
func FuzzServerPacket(f *testing.F) {
	member := netip.MustParseAddrPort("10.0.0.1:4000")
	stranger := netip.MustParseAddrPort("10.0.0.2:5000")
	client, _ := fuzzChannels(f)
	seeds := sealedSeeds(f, client, LAN().MTU)
	for _, s := range seeds {
		f.Add(s, true)
		f.Add(s, false)
	}
	o := fuzzServer(f, stranger)
	nonce := nonceOf(2)
	f.Add(appendHello(nil, nonceOf(1)), false)
	f.Add(appendHello(nil, nonceOf(1))[:30], false)
	f.Add(appendConnect(nil, nonce, o.cookies.make(stranger, nonce[:], window(t0)), bytes.Repeat([]byte{9}, keySize)), false)
	f.Add(appendAccept(nil, nonceOf(1), fuzzConv, make([]byte, keySize), make([]byte, keySize), make([]byte, sigSize)), true)

	f.Fuzz(func(t *testing.T, pkt []byte, fromMember bool) {
		o := fuzzServer(t, member)
		from := stranger
		if fromMember {
			from = member
		}
		before := o.Stats()
		o.handlePacket(t0, from, append([]byte(nil), pkt...))
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
			if !containsBytes(seeds, pkt) {
				t.Errorf("delivered %d frames from a datagram the peer never sealed: %x", len(frames), pkt)
			}
		}
		if after.Sessions > 2 || after.Accepted > 2 {
			t.Errorf("%d sessions, %d accepted after one datagram", after.Sessions, after.Accepted)
		}
	})
}

func containsBytes(set [][]byte, b []byte) bool {
	for _, s := range set {
		if bytes.Equal(s, b) {
			return true
		}
	}
	return false
}

// clientLog records a fuzzed client's frames.
type clientLog struct{ frames [][]byte }

func (l *clientLog) Message(f []byte) { l.frames = append(l.frames, append([]byte(nil), f...)) }
func (l *clientLog) Tick(time.Time)   {}

// FuzzClientPacket feeds arbitrary datagrams to an established client. It
// must not panic, must deliver only frames of at most wire.MaxFrame bytes,
// and only from datagrams the server sealed.
func FuzzClientPacket(f *testing.F) {
	_, server := fuzzChannels(f)
	seeds := sealedSeeds(f, server, LAN().MTU)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pkt []byte) {
		cfg, _ := LAN().withDefaults()
		c := &Client{cfg: cfg, server: netip.MustParseAddrPort("10.0.0.9:7777")}
		client, _ := fuzzChannels(t)
		c.accept(&established{conv: fuzzConv, ch: client}, t0)
		var log clientLog
		c.handlePacket(t0, append([]byte(nil), pkt...), &log)
		c.tick(t0.Add(10 * time.Millisecond))
		for _, fr := range log.frames {
			if len(fr) == 0 || len(fr) > wire.MaxFrame {
				t.Errorf("delivered a %d-byte frame", len(fr))
			}
		}
		if len(log.frames) > 0 && !containsBytes(seeds, pkt) {
			t.Errorf("delivered %d frames from a datagram the server never sealed", len(log.frames))
		}
		if st := c.Stats(); st.PacketsIn != 1 {
			t.Errorf("PacketsIn %d, want 1", st.PacketsIn)
		}
	})
}

// FuzzClientHandshake feeds arbitrary answers to a client in the middle of
// its handshake: it must not panic, and must make a session only from an
// Accept signed by the host for its own Connect.
func FuzzClientHandshake(f *testing.F) {
	o := newOffline(f, LAN())
	from := netip.MustParseAddrPort("10.0.0.1:4000")
	base, err := newClientHandshake("")
	if err != nil {
		f.Fatal(err)
	}
	fresh := func() *clientHandshake {
		h := *base
		h.pkt = appendHello(nil, h.nonce)
		return &h
	}
	hs := fresh()
	o.handlePacket(t0, from, hs.pkt)
	cookie := o.take()[0].pkt
	if _, err := hs.receive(cookie); err != nil {
		f.Fatal(err)
	}
	o.handlePacket(t0, from, hs.pkt)
	accept := o.take()[0].pkt
	f.Add(cookie, accept)
	f.Add(cookie, appendRefuse(nil, base.nonce, RefuseFull))
	f.Add(accept, cookie)
	f.Add([]byte{kindCookie}, []byte{kindAccept})
	f.Fuzz(func(t *testing.T, first, second []byte) {
		hs := fresh()
		if est, _ := hs.receive(first); est != nil {
			t.Fatalf("a session before any Connect was sent")
		}
		est, _ := hs.receive(second)
		if est != nil && !bytes.Equal(second, accept) {
			t.Errorf("a session from an Accept the host never signed: %x", second)
		}
	})
}
