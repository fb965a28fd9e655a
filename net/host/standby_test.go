package host_test

import (
	"encoding/hex"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/room"
)

// TestResumedHostKeepsTheGamesListing: a successor's host carries the game
// on under the room name and LAN listing id it had, so that lobbies and
// LAN lists show the same game at its new address; a game that was not
// listed gets an id of its own.
func TestResumedHostKeepsTheGamesListing(t *testing.T) {
	old := host.New(host.LAN())
	id := old.ListingID()
	if len(id) != 16 {
		t.Fatalf("listing id %q, want 16 hex digits", id)
	}
	var listing [8]byte
	if _, err := hex.Decode(listing[:], []byte(id)); err != nil {
		t.Fatalf("listing id %q: %v", id, err)
	}
	setup := bots.DefaultBotSetup()
	setup.Seed, setup.Players = 9, 0b11
	hd := room.Handover{Game: 1, Name: "Ada’s game", Setup: setup, Present: 0b11, Expected: 0b11, Next: 100, K: 2, Delay: 1,
		Names: [game.MaxPlayers]string{"Ada", "Bo"}, Listing: listing}

	h := host.NewResumed(host.LAN(), hd)
	h.Tick(time.Now())
	if got := h.ListingID(); got != id {
		t.Errorf("resumed host lists the game as %q, want the old host's %q", got, id)
	}
	if got := h.Stats().Name; got != hd.Name {
		t.Errorf("resumed room is called %q, want %q", got, hd.Name)
	}

	hd.Listing, hd.Name = [8]byte{}, ""
	h = host.NewResumed(host.LAN(), hd)
	h.Tick(time.Now())
	if got := h.ListingID(); len(got) != 16 || got == id {
		t.Errorf("a game that was not listed: id %q, want a new one", got)
	}
	if got, want := h.Stats().Name, host.LAN().Name; got != want {
		t.Errorf("no name handed over: room called %q, want the host's default %q", got, want)
	}
}
