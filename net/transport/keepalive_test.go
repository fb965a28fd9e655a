package transport

import (
	"net/netip"
	"slices"
	"testing"
	"time"
)

// TestKeepSchedule: the keep-alive schedule on virtual time: a new
// address gets an opening keep-alive (short TTL) at once, a full one
// OpenDelay later, then one every `every`; a kept address keeps its time
// when the set changes; a dropped one is never sent again (and is new if
// named again); invalid addresses and port 0 are ignored.
func TestKeepSchedule(t *testing.T) {
	a := netip.MustParseAddrPort("198.51.100.1:4000")
	b := netip.MustParseAddrPort("198.51.101.1:4001")
	c := netip.MustParseAddrPort("198.51.102.1:4002")
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type step struct {
		at            int              // ms after t0
		set           []netip.AddrPort // non-nil: set these first
		opening, full []netip.AddrPort // due then
	}
	ab := []netip.AddrPort{a, b}
	cases := []struct {
		name  string
		steps []step
	}{
		{"an opening one at once, a full one a second later, then every 5 s", []step{
			{at: 0, set: []netip.AddrPort{b, a}, opening: ab},
			{at: 10},
			{at: 999},
			{at: 1000, full: ab},
			{at: 5999},
			{at: 6000, full: ab},
			{at: 11000, full: ab},
		}},
		{"an address added later is opened at once, the kept ones on their time", []step{
			{at: 0, set: []netip.AddrPort{a}, opening: []netip.AddrPort{a}},
			{at: 1000, full: []netip.AddrPort{a}},
			{at: 2000, set: []netip.AddrPort{a, c}, opening: []netip.AddrPort{c}},
			{at: 3000, full: []netip.AddrPort{c}},
			{at: 6000, full: []netip.AddrPort{a}},
			{at: 8000, full: []netip.AddrPort{c}},
		}},
		{"a dropped address is not sent again; one named again is opened again", []step{
			{at: 0, set: ab, opening: ab},
			{at: 500, set: []netip.AddrPort{b}},
			{at: 1000, full: []netip.AddrPort{b}},
			{at: 6000, set: ab, opening: []netip.AddrPort{a}, full: []netip.AddrPort{b}},
			{at: 7000, full: []netip.AddrPort{a}},
		}},
		{"nothing for invalid addresses or port 0", []step{
			{at: 0, set: []netip.AddrPort{{}, netip.AddrPortFrom(a.Addr(), 0)}},
			{at: 5000},
		}},
		{"a late tick sends once, not once per missed period", []step{
			{at: 0, set: []netip.AddrPort{a}, opening: []netip.AddrPort{a}},
			{at: 17000, full: []netip.AddrPort{a}},
			{at: 17001},
			{at: 22000, full: []netip.AddrPort{a}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := keepSchedule{every: KeepaliveEvery}
			for _, s := range tc.steps {
				if s.set != nil {
					k.set(at(s.at), s.set)
				}
				opening, full := k.due(at(s.at))
				if !slices.Equal(opening, s.opening) || !slices.Equal(full, s.full) {
					t.Fatalf("at %d ms: due opening %v and full %v, want %v and %v", s.at, opening, full, s.opening, s.full)
				}
			}
		})
	}
}

// TestServerKeepalives: a server counts a well-formed keep-alive and does
// nothing else for it (no answer, no session, no drop); one of another
// length or with other bytes is dropped as malformed; KeepAlive's
// addresses are sent keep-alives from the loop's tick, at once and then
// every KeepaliveEvery.
func TestServerKeepalives(t *testing.T) {
	cfg, err := LAN().withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	s, err := newServer(cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	type sent struct {
		b  []byte
		to netip.AddrPort
	}
	var out []sent
	s.writeTo = func(b []byte, _ netip.Addr, to netip.AddrPort) {
		out = append(out, sent{append([]byte(nil), b...), to})
	}
	from := netip.MustParseAddrPort("198.51.100.7:5000")
	s.handlePacket(now, from, []byte{kindKeepalive, 0, 0, 0})
	s.handlePacket(now, from, []byte{kindKeepalive, 0, 0, 0, 0})
	s.handlePacket(now, from, []byte{kindKeepalive, 1, 0, 0})
	s.handlePacket(now, from, []byte{kindKeepalive})
	st := s.Stats()
	if st.Keepalives != 1 || st.Dropped[DropMalformed] != 3 || st.TotalDropped() != 3 {
		t.Fatalf("keepalives %d, dropped %v: want 1 counted and 3 malformed", st.Keepalives, st.Dropped)
	}
	if len(out) != 0 || st.Sessions != 0 {
		t.Fatalf("a keep-alive was answered (%d datagrams) or made a session (%d)", len(out), st.Sessions)
	}
	to := netip.MustParseAddrPort("198.51.101.9:6000")
	s.KeepAlive([]netip.AddrPort{to})
	s.tick(now)
	if s.PathOpen(to) {
		t.Fatal("the path counts as open after the opening keep-alive alone")
	}
	s.tick(now.Add(OpenDelay / 2))
	s.tick(now.Add(OpenDelay))
	if !s.PathOpen(to) {
		t.Fatal("the path does not count as open after the first full keep-alive")
	}
	s.tick(now.Add(OpenDelay + KeepaliveEvery))
	if len(out) != 3 || out[0].to != to || string(out[0].b) != string(keepalivePacket[:]) {
		t.Fatalf("sent %v, want three keep-alives to %v (at once, %v later and %v after that)", out, to, OpenDelay, KeepaliveEvery)
	}
	if st := s.Stats(); st.KeepalivesOut != 3 {
		t.Fatalf("KeepalivesOut %d, want 3", st.KeepalivesOut)
	}
	s.KeepAlive(nil)
	s.tick(now.Add(3 * KeepaliveEvery))
	if len(out) != 3 || s.PathOpen(to) {
		t.Fatalf("after KeepAlive(nil): sent %v, path open %v; want nothing more, and the path forgotten", out, s.PathOpen(to))
	}
}
