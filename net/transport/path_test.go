package transport

import (
	"net/netip"
	"testing"
	"time"
)

// TestSpoofedMoveOffline: a peer that completed its handshake goes quiet
// at home, then sends its own sealed datagrams with other source
// addresses (forged: a victim's). Every address it names is sent nothing
// but challenges, never more than amplification times the bytes that came
// "from" it, at most one per challengeEvery, and the session stays home.
func TestSpoofedMoveOffline(t *testing.T) {
	victim := addr(t, "10.9.9.9:53")
	tests := []struct {
		name    string
		every   time.Duration // between two forged datagrams
		n       int           // forged datagrams
		size    int           // payload bytes of each (0: a Ping)
		victims []netip.AddrPort
	}{
		{"keep-alives every tick", 10 * time.Millisecond, 300, 0, []netip.AddrPort{victim}},
		{"keep-alives slower than the challenges", 250 * time.Millisecond, 20, 0, []netip.AddrPort{victim}},
		{"large datagrams", 10 * time.Millisecond, 100, 1000, []netip.AddrPort{victim}},
		{"a new victim each time", 10 * time.Millisecond, 200, 0, []netip.AddrPort{victim, addr(t, "10.9.9.10:53"), addr(t, "10.8.0.1:123")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := LAN()
			o := newOffline(t, cfg)
			home := addr(t, "10.0.0.1:4000")
			peer, _ := o.handshake(t, t0, home, nonceOf(1))
			o.handlePacket(t0, home, peer.seal(t, kindPing, nil))
			o.take()
			in := map[netip.AddrPort]int{}
			out := map[netip.AddrPort]int{}
			challenges := 0
			now := t0.Add(2 * cfg.Heartbeat) // home quiet
			for i := range tc.n {
				to := tc.victims[i%len(tc.victims)]
				var pkt []byte
				if tc.size == 0 {
					pkt = peer.seal(t, kindPing, nil)
				} else {
					pkt = peer.seal(t, kindDgram, make([]byte, tc.size))
				}
				in[to] += len(pkt)
				o.handlePacket(now, to, pkt)
				o.tick(now)
				for _, s := range o.take() {
					if s.to == home {
						continue
					}
					out[s.to] += len(s.pkt)
					if kind, _, ok := peer.open(s.pkt); !ok || kind != kindChallenge {
						t.Fatalf("sent kind %d (opens: %v) to %v, want only challenges", kind, ok, s.to)
					}
					challenges++
				}
				now = now.Add(tc.every)
			}
			for to, n := range out {
				if n > amplification*in[to] {
					t.Errorf("%v: sent %d bytes for %d received, want at most %d×", to, n, in[to], amplification)
				}
			}
			span := time.Duration(tc.n) * tc.every
			if most := int(span/challengeEvery) + 1; challenges < 1 || challenges > most {
				t.Errorf("%d challenges in %v, want 1 to %d", challenges, span, most)
			}
			if st := o.Stats(); st.Migrated != 0 || st.Sessions != 1 || int(st.Challenges) != challenges {
				t.Errorf("stats %+v: want no migration, one session, %d challenges", st, challenges)
			}
			if o.perIP[home.Addr()] != 1 || o.perIP[victim.Addr()] != 0 {
				t.Errorf("per-IP counts %v, want the session counted at home only", o.perIP)
			}
		})
	}
}

// TestMoveOverLimitOffline: a session is counted under its new address's
// limits when it moves, so a move there that would take the address over
// MaxPerIP (or its network over MaxPerSubnet) is refused: no challenge,
// counted as a path drop, and the session stays.
func TestMoveOverLimitOffline(t *testing.T) {
	tests := []struct {
		name       string
		perIP, net int
		there, to  string // another session's address, and where the first moves
		move       bool
	}{
		{"another port of its own IP", 1, 1, "10.0.1.1:1", "10.0.0.1:4001", true},
		{"an IP at MaxPerIP", 1, 4, "10.0.0.2:1", "10.0.0.2:2", false},
		{"a network at MaxPerSubnet", 4, 1, "10.0.1.1:1", "10.0.1.2:2", false},
		{"an IP of its own network", 1, 1, "10.0.1.1:1", "10.0.0.7:2", true},
		{"an IP with room", 2, 4, "10.0.0.2:1", "10.0.0.2:2", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := LAN()
			cfg.MaxPerIP, cfg.MaxPerSubnet = tc.perIP, tc.net
			o := newOffline(t, cfg)
			home := addr(t, "10.0.0.1:4000")
			peer, _ := o.handshake(t, t0, home, nonceOf(1))
			if _, refused := o.handshake(t, t0, addr(t, tc.there), nonceOf(2)); refused != 0 {
				t.Fatalf("second session refused: %d", refused)
			}
			o.handlePacket(t0, home, peer.seal(t, kindPing, nil))
			o.take()
			to := addr(t, tc.to)
			now := t0.Add(2 * cfg.Heartbeat)
			o.handlePacket(now, to, peer.seal(t, kindPing, nil))
			var challenge []byte
			for _, s := range o.take() {
				if kind, p, ok := peer.open(s.pkt); ok && kind == kindChallenge && s.to == to {
					challenge = p
				}
			}
			if challenge != nil {
				o.handlePacket(now, to, peer.seal(t, kindResponse, challenge))
			}
			st := o.Stats()
			if moved := st.Migrated == 1; moved != tc.move || (challenge != nil) != tc.move {
				t.Errorf("challenged %v, migrated %d; want a move: %v", challenge != nil, st.Migrated, tc.move)
			}
			if !tc.move && st.Dropped[DropPath] != 1 {
				t.Errorf("%d path drops, want 1", st.Dropped[DropPath])
			}
			at := home
			if tc.move {
				at = to
			}
			if o.perIP[at.Addr()] < 1 || o.perSubnet[subnetOf(at.Addr())] < 1 {
				t.Errorf("per-IP %v, per-network %v: the session not counted at %v", o.perIP, o.perSubnet, at)
			}
		})
	}
}

// TestConnectReplayOffline: a Connect is accepted once. Repeated before
// the client's first sealed datagram (the Accept was lost) it gets the
// same Accept again; replayed after, from its own address within the
// cookie's life, it makes no session and gets no answer, and is counted.
func TestConnectReplayOffline(t *testing.T) {
	o := newOffline(t, LAN())
	from := addr(t, "10.0.0.1:4000")
	hs, err := newClientHandshake("")
	if err != nil {
		t.Fatal(err)
	}
	o.handlePacket(t0, from, hs.pkt)
	if est, err := hs.receive(o.take()[0].pkt); est != nil || err != nil || !hs.cookie {
		t.Fatalf("Cookie: %v, %v", est, err)
	}
	connect := append([]byte(nil), hs.pkt...)
	o.handlePacket(t0, from, connect)
	accept := o.take()
	o.handlePacket(t0.Add(time.Second), from, connect) // the Accept was lost
	if again := o.take(); len(again) != 1 || string(again[0].pkt) != string(accept[0].pkt) {
		t.Fatalf("a repeated Connect got %v, want the same Accept", again)
	}
	est, err := hs.receive(accept[0].pkt)
	if est == nil || err != nil {
		t.Fatalf("Accept: %v, %v", est, err)
	}
	peer := &testPeer{conv: est.conv, ch: est.ch, from: from}
	o.handlePacket(t0.Add(time.Second), from, peer.seal(t, kindPing, nil))
	for _, at := range []time.Duration{2 * time.Second, cookieWindow} {
		o.take()
		o.handlePacket(t0.Add(at), from, connect)
		if out := o.take(); len(out) != 0 {
			t.Errorf("a Connect replayed after %v got %d answers, want none", at, len(out))
		}
	}
	if st := o.Stats(); st.Sessions != 1 || st.Accepted != 1 || st.Dropped[DropReplay] != 2 || len(o.ev.connected) != 1 {
		t.Errorf("stats %+v, %d connected: want one session, two replays dropped", st, len(o.ev.connected))
	}
}
