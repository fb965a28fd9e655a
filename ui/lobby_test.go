package ui

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"rockstep/game"
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

// TestPingLabelIsTheSameOnEveryScreen: a player's ping cell is the room's
// figure, whoever looks: the host's own line included (it read "host" on
// the host's screen while guests saw a figure). pingLabel takes no viewer.
func TestPingLabelIsTheSameOnEveryScreen(t *testing.T) {
	host := wire.Player{Slot: 0, Host: true, Ping: 3}
	guest := wire.Player{Slot: 1, Ping: 270}
	unmeasured := wire.Player{Slot: 2}
	tests := []struct {
		name string
		p    wire.Player
		want string
	}{
		{"the room's host", host, "3 ms"},
		{"a guest", guest, "270 ms"},
		{"a player not measured yet", unmeasured, "—"},
	}
	for _, tc := range tests {
		if got := pingLabel(tc.p); got != tc.want {
			t.Errorf("%s: pingLabel = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestLobbySaysWhyReadyWasCleared: a guest was ready; the host changes the
// setup and the room clears the guest's Ready. The lobby says why, until
// the guest is ready again; a guest who was not ready is told nothing new.
func TestLobbySaysWhyReadyWasCleared(t *testing.T) {
	a := newTestApp(t, nil)
	s := newLobbyScreen(a)
	roster := func(ready bool, mode game.Mode) {
		t.Helper()
		a.nv.ok, a.nv.slot = true, 1
		a.nv.setup = wire.SetupState{Name: "Ada's game", MaxSlots: 8, Setup: game.DefaultSetup(), Players: []wire.Player{
			{Slot: 0, Name: "Ada", Host: true, Ready: true, Connected: true},
			{Slot: 1, Name: "Bob", Ready: ready, Connected: true},
		}}
		a.nv.setup.Setup.Mode = mode
		if err := s.update(Intents{}); err != nil {
			t.Fatal(err)
		}
	}
	const why = "The host changed the setup: press Ready to play it."
	roster(false, game.Coop)
	roster(false, game.Versus)
	if s.hint.Label == why {
		t.Fatalf("a guest never ready is told %q", why)
	}
	roster(true, game.Versus)
	roster(false, game.Coop)
	if s.hint.Label != why {
		t.Fatalf("after the change, the hint says %q, want %q", s.hint.Label, why)
	}
	roster(false, game.Coop)
	if s.hint.Label != why {
		t.Fatalf("a frame later, the hint says %q, want it kept", s.hint.Label)
	}
	roster(true, game.Coop)
	if s.hint.Label == why {
		t.Errorf("ready again, the hint still says %q", why)
	}
}

// TestLobbyKeepsItsWidthWhenTheModeChanges: the host clicks Co-op and
// Versus; the panel must not grow or shrink under the pointer (friendly
// fire reads Always in versus).
func TestLobbyKeepsItsWidthWhenTheModeChanges(t *testing.T) {
	a := newTestApp(t, nil)
	s := newLobbyScreen(a)
	width := func(mode game.Mode, ff bool) int {
		t.Helper()
		a.nv.ok, a.nv.slot, a.nv.host = true, 0, true
		a.nv.setup = wire.SetupState{Name: "Ada's game", MaxSlots: 8, Setup: game.DefaultSetup(), Players: []wire.Player{
			{Slot: 0, Name: "Ada", Host: true, Connected: true},
		}}
		a.nv.setup.Setup.Mode, a.nv.setup.Setup.FriendlyFire = mode, ff
		if err := s.update(Intents{}); err != nil {
			t.Fatal(err)
		}
		w, _ := s.top.PreferredSize()
		return w
	}
	coop := width(game.Coop, false)
	if got := width(game.Versus, false); got != coop {
		t.Errorf("the lobby is %d wide in versus, %d in co-op; want one width", got, coop)
	}
	if got := width(game.Coop, true); got != coop {
		t.Errorf("the lobby is %d wide with friendly fire on, %d off; want one width", got, coop)
	}
}
