package client

import (
	"net/netip"
	"slices"
	"testing"

	"rockstep/net/migrate"
	"rockstep/net/wire"
)

// TestKeepTargets: a standby keeps open the paths to every other
// candidate's standby, at the address the room observes and at the one
// its router mapped (once if they are the same), only while the game or
// its lobby runs (and to the candidates the machine probes besides,
// whenever), never to itself.
func TestKeepTargets(t *testing.T) {
	a := netip.MustParseAddrPort("198.51.100.1:4000")
	aOut := netip.MustParseAddrPort("203.0.113.1:4000")
	b := netip.MustParseAddrPort("198.51.101.1:4001")
	self := netip.MustParseAddrPort("198.51.102.1:4002")
	list := wire.Successors{List: []wire.Successor{
		{Slot: 2, Addr: self},
		{Slot: 0, Addr: a, Outside: aOut},
		{Slot: 1, Addr: b, Outside: b, Unreached: true},
	}}
	cases := []struct {
		name    string
		v       migrate.View
		probing []wire.Successor
		want    []netip.AddrPort
	}{
		{"playing: every other candidate, observed and mapped, the unreached too", migrate.View{Playing: true, Slot: 2, List: list}, nil, []netip.AddrPort{a, aOut, b}},
		{"in the lobby: the same", migrate.View{Lobby: true, Slot: 2, List: list}, nil, []netip.AddrPort{a, aOut, b}},
		{"another slot: itself left out", migrate.View{Playing: true, Slot: 0, List: list}, nil, []netip.AddrPort{self, b}},
		{"the game over: none", migrate.View{Slot: 2, List: list}, nil, nil},
		{"no list: none", migrate.View{Playing: true, Slot: 2}, nil, nil},
		{"the game over, probing some: those", migrate.View{Slot: 2, List: list}, []wire.Successor{list.List[2], list.List[0]}, []netip.AddrPort{b}},
		{"an entry with no port: left out", migrate.View{Playing: true, Slot: 2, List: wire.Successors{List: []wire.Successor{{Slot: 0, Addr: netip.AddrPortFrom(a.Addr(), 0)}}}}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := keepTargets(tc.v, tc.probing); !slices.Equal(got, tc.want) {
				t.Fatalf("keepTargets = %v, want %v", got, tc.want)
			}
		})
	}
}
