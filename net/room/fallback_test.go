package room_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestFallbackServersTravelWithTheGame: the host's known community servers
// go out with the successors (wire.Successors.Servers, at most
// wire.MaxFallbackServers), and a successor's resumed room sends them on,
// so the game can still move to one after a move (docs/ARCHITECTURE.md,
// "A server as the last successor").
func TestFallbackServersTravelWithTheGame(t *testing.T) {
	servers := []wire.FallbackServer{{Name: "Friday night", Addr: "play.example.org:7777"}, {Addr: "a:1"}, {Addr: "b:1"}, {Addr: "c:1"}, {Addr: "d:1"}}
	cfg := room.LAN()
	cfg.Random = rand.NewChaCha8([32]byte{1})
	cfg.Fallback = servers
	if got := room.New(cfg).Successors().Servers; !slices.Equal(got, servers[:wire.MaxFallbackServers]) {
		t.Errorf("the host's room sends servers %+v, want the first %d of %+v", got, wire.MaxFallbackServers, servers)
	}
	cfg.Fallback = nil
	hd := room.Handover{Game: 1, Setup: game.DefaultSetup(), Present: 0b11, Expected: 0b10, Next: 100, K: 1, Delay: 1, Servers: servers[:1]}
	hd.Tokens[0], hd.Tokens[1] = room.TokenHash([16]byte{1}), room.TokenHash([16]byte{2})
	if got := room.Resume(cfg, hd).Successors().Servers; !slices.Equal(got, servers[:1]) {
		t.Errorf("a resumed room sends servers %+v, want %+v", got, servers[:1])
	}
	if got := room.Resume(cfg, room.Handover{Game: 1, Setup: game.DefaultSetup(), Present: 0b1, Next: 1, K: 1, Delay: 1}).Successors().Servers; got != nil {
		t.Errorf("a resumed room without servers sends %+v, want none", got)
	}
}
