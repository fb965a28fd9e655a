package ui

import (
	"os"
	"slices"
	"testing"

	"rockstep/game"
	"rockstep/net/wire"
)

// TestListingHostName: the LAN list's HOST column shows the hosting
// player's name, not the machine's; the machine's only when there is no
// name.
func TestListingHostName(t *testing.T) {
	machine, _ := os.Hostname()
	tests := []struct {
		name, player, want string
	}{
		{"player's name", "Ada", "Ada"},
		{"no name", "", machine},
		{"blank name", "  ", machine},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := listingHostName(tc.player); got != tc.want {
				t.Errorf("listingHostName(%q) = %q, want %q", tc.player, got, tc.want)
			}
		})
	}
}

// TestDepartures: the lobby says who left the room; a player who stays, or
// one who only lost the connection (still on the roster), is not named.
func TestDepartures(t *testing.T) {
	ada := wire.Player{Slot: 0, ID: [16]byte{1}, Name: "Ada"}
	bob := wire.Player{Slot: 1, ID: [16]byte{2}, Name: "Bob"}
	cy := wire.Player{Slot: 2, ID: [16]byte{3}, Name: "Cy"}
	bobAway := bob
	bobAway.Connected = false
	tests := []struct {
		name          string
		before, after []wire.Player
		want          []string
	}{
		{"nobody yet", nil, []wire.Player{ada}, nil},
		{"one left", []wire.Player{ada, bob, cy}, []wire.Player{ada, cy}, []string{"Bob"}},
		{"two left", []wire.Player{ada, bob, cy}, []wire.Player{ada}, []string{"Bob", "Cy"}},
		{"lost the connection", []wire.Player{ada, bob}, []wire.Player{ada, bobAway}, nil},
		{"someone joined", []wire.Player{ada}, []wire.Player{ada, bob}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := departures(tc.before, tc.after); !slices.Equal(got, tc.want) {
				t.Errorf("departures = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHostSetup: hosting again opens with the options the player chose
// last, on the room's default seed and players; a setup the engine cannot
// run (a settings file may hold anything) gives the default.
func TestHostSetup(t *testing.T) {
	def := game.DefaultSetup()
	versus := game.Setup{Seed: 9, Players: 3, Mode: game.Versus, Lives: 5, StartWave: 2, Saucers: true}
	wantVersus := versus.Options()
	wantVersus.Seed, wantVersus.Players = def.Seed, def.Players
	bad := game.Setup{Mode: game.Versus, Lives: 0, StartWave: 1}
	tests := []struct {
		name string
		last *game.Setup
		want game.Setup
	}{
		{"none yet", nil, def},
		{"versus, five lives", &versus, wantVersus},
		{"not runnable", &bad, def},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hostSetup(def, tc.last); got != tc.want {
				t.Errorf("hostSetup = %+v, want %+v", got, tc.want)
			}
		})
	}
}
