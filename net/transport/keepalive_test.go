package transport

import (
	"net/netip"
	"slices"
	"testing"
	"time"
)

// TestKeepSchedule: the keep-alive schedule on virtual time: a new
// address at once, then every `every`; a kept address keeps its time
// when the set changes; a dropped one is never sent again; invalid
// addresses and port 0 are ignored.
func TestKeepSchedule(t *testing.T) {
	a := netip.MustParseAddrPort("198.51.100.1:4000")
	b := netip.MustParseAddrPort("198.51.101.1:4001")
	c := netip.MustParseAddrPort("198.51.102.1:4002")
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type step struct {
		at   int              // ms after t0
		set  []netip.AddrPort // non-nil: set these first
		want []netip.AddrPort // due then
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"new addresses at once, then every 5 s", []step{
			{at: 0, set: []netip.AddrPort{b, a}, want: []netip.AddrPort{a, b}},
			{at: 10, want: nil},
			{at: 4999, want: nil},
			{at: 5000, want: []netip.AddrPort{a, b}},
			{at: 10000, want: []netip.AddrPort{a, b}},
		}},
		{"an address added later is sent at once, the kept ones on their time", []step{
			{at: 0, set: []netip.AddrPort{a}, want: []netip.AddrPort{a}},
			{at: 2000, set: []netip.AddrPort{a, c}, want: []netip.AddrPort{c}},
			{at: 5000, want: []netip.AddrPort{a}},
			{at: 7000, want: []netip.AddrPort{c}},
		}},
		{"a dropped address is not sent again; one set again is new", []step{
			{at: 0, set: []netip.AddrPort{a, b}, want: []netip.AddrPort{a, b}},
			{at: 1000, set: []netip.AddrPort{b}, want: nil},
			{at: 5000, want: []netip.AddrPort{b}},
			{at: 6000, set: []netip.AddrPort{a, b}, want: []netip.AddrPort{a}},
		}},
		{"nothing for invalid addresses or port 0", []step{
			{at: 0, set: []netip.AddrPort{{}, netip.AddrPortFrom(a.Addr(), 0)}, want: nil},
			{at: 5000, want: nil},
		}},
		{"a late tick sends once, not once per missed period", []step{
			{at: 0, set: []netip.AddrPort{a}, want: []netip.AddrPort{a}},
			{at: 17000, want: []netip.AddrPort{a}},
			{at: 17001, want: nil},
			{at: 22000, want: []netip.AddrPort{a}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := keepSchedule{every: KeepaliveEvery}
			for _, s := range tc.steps {
				if s.set != nil {
					k.set(at(s.at), s.set)
				}
				if got := k.due(at(s.at)); !slices.Equal(got, s.want) {
					t.Fatalf("at %d ms: due %v, want %v", s.at, got, s.want)
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
	s.tick(now.Add(time.Second))
	s.tick(now.Add(KeepaliveEvery))
	if len(out) != 2 || out[0].to != to || string(out[0].b) != string(keepalivePacket[:]) {
		t.Fatalf("sent %v, want two keep-alives to %v (at once and %v later)", out, to, KeepaliveEvery)
	}
	if st := s.Stats(); st.KeepalivesOut != 2 {
		t.Fatalf("KeepalivesOut %d, want 2", st.KeepalivesOut)
	}
	s.KeepAlive(nil)
	s.tick(now.Add(3 * KeepaliveEvery))
	if len(out) != 2 {
		t.Fatalf("a keep-alive was sent after KeepAlive(nil): %v", out)
	}
}
