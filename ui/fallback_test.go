package ui

import (
	"reflect"
	"testing"

	"rockstep/net/migrate"
	"rockstep/net/wire"
)

// TestFallbackServers: the known servers travel with a hosted game by
// address, with the key pinned for each, at most wire.MaxFallbackServers.
func TestFallbackServers(t *testing.T) {
	known := []KnownServer{
		{Addr: "play.example.org:7777", Fingerprint: "000102030405060708090a0b0c0d0e0f"},
		{Addr: "90.0.0.9:7777"},
		{Addr: "a:1"}, {Addr: "b:1"}, {Addr: "c:1"},
	}
	got := fallbackServers(known)
	want := []wire.FallbackServer{
		{Addr: "play.example.org:7777", Key: [16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{Addr: "90.0.0.9:7777"}, {Addr: "a:1"}, {Addr: "b:1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fallbackServers = %+v, want %+v", got, want)
	}
}

// TestMovedToServerNews: a game that moved to a community server says so,
// in the game's news and in the lobby.
func TestMovedToServerNews(t *testing.T) {
	nv := &netView{slot: 1, server: "Friday night", moves: 1, mover: migrate.OnServer}
	const want = "The game moved to the server Friday night."
	if got := newsLine(news{newsHosts, migrate.OnServer}, nv); got != want {
		t.Errorf("news: %q, want %q", got, want)
	}
	told := 1
	if got := lobbyMovedLine(nv, &told); got != want {
		t.Errorf("lobby: %q, want %q", got, want)
	}
}

// TestBackNews: a player's return is news to the others by its name, and
// to the player itself in its own words.
func TestBackNews(t *testing.T) {
	nv := &netView{slot: 1, names: [8]string{"Ada", "Bo"}}
	for _, tt := range []struct {
		slot int
		want string
	}{{0, "Ada is back"}, {1, backText}} {
		if got := newsLine(news{newsRejoined, tt.slot}, nv); got != tt.want {
			t.Errorf("slot %d back: %q, want %q", tt.slot, got, tt.want)
		}
	}
}
