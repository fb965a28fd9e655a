package ui

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"rockstep/net/wire"
)

func TestJoinAddrsNameWhereOthersJoin(t *testing.T) {
	ifaces := []netip.Addr{
		netip.MustParseAddr("127.0.0.1"),
		netip.MustParseAddr("::1"),
		netip.MustParseAddr("fe80::1"),
		netip.MustParseAddr("fd00::20"),
		netip.MustParseAddr("192.168.1.20"),
		netip.MustParseAddr("10.0.0.5"),
	}
	tests := []struct {
		name   string
		listen string
		ifaces []netip.Addr
		want   []string
	}{
		{"any address: the machine's, IPv4 first", "[::]:7777", ifaces, []string{"192.168.1.20:7777", "10.0.0.5:7777", "[fd00::20]:7777"}},
		{"any IPv4 address", "0.0.0.0:7000", ifaces, []string{"192.168.1.20:7000", "10.0.0.5:7000", "[fd00::20]:7000"}},
		{"one address", "127.0.0.1:41000", ifaces, []string{"127.0.0.1:41000"}},
		{"only loopback", "[::]:7777", ifaces[:3], nil},
		{"at most three", "[::]:7777", []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.0.2"), netip.MustParseAddr("10.0.0.3"), netip.MustParseAddr("10.0.0.4")}, []string{"10.0.0.1:7777", "10.0.0.2:7777", "10.0.0.3:7777"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := joinAddrs(netip.MustParseAddrPort(tc.listen), tc.ifaces)
			if !slices.Equal(got, tc.want) {
				t.Errorf("joinAddrs(%s) = %q, want %q", tc.listen, got, tc.want)
			}
		})
	}
}

func TestHostWhereGivesAddressesAndPort(t *testing.T) {
	ifaces := []netip.Addr{netip.MustParseAddr("192.168.1.20")}
	if got, want := hostWhere("[::]:7777", ifaces), "join 192.168.1.20:7777"; !strings.Contains(got, want) {
		t.Errorf("hostWhere = %q, want it to say %q", got, want)
	}
	if got, want := hostWhere("[::]:7777", nil), "port 7777"; !strings.Contains(got, want) {
		t.Errorf("hostWhere with no known address = %q, want it to say %q", got, want)
	}
}

func TestPingLabelShowsWhatOthersSee(t *testing.T) {
	ada := wire.Player{Slot: 0, Host: true, Ping: 3}
	bob := wire.Player{Slot: 1, Ping: 270}
	tests := []struct {
		name     string
		p        wire.Player
		me       int
		roomHere bool
		want     string
	}{
		{"the room's host in this process, own line", wire.Player{Slot: 0, Host: true}, 0, true, "host"},
		{"the room's host on a server, own line", ada, 0, false, "3 ms"},
		{"the room's host on a server, seen by a guest", ada, 1, false, "3 ms"},
		{"a guest, own line", bob, 1, false, "270 ms"},
		{"a guest, own line, not measured yet", wire.Player{Slot: 1}, 1, false, "—"},
		{"a guest, seen by the host, not measured yet", wire.Player{Slot: 1}, 0, true, "—"},
		{"a guest, seen by the host", bob, 0, true, "270 ms"},
		{"a guest, seen by a spectator", bob, -1, false, "270 ms"},
	}
	for _, tc := range tests {
		if got := pingLabel(tc.p, tc.me, tc.roomHere); got != tc.want {
			t.Errorf("%s: pingLabel = %q, want %q", tc.name, got, tc.want)
		}
	}
}
