package client

import (
	"context"
	"fmt"
	"testing"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestLateRejoinLandsInTheLobbyWithTheResults: over real sockets on
// loopback, three players play; the third one's game crashes (its client
// abandoned, not a word to the room); the host ends the game, and the two
// others press Back to lobby, so the room is in setup for the rematch. The
// crashed player comes back with its token: it is in the room's lobby, in
// its own seat, and reads the last game's results there, the same table
// the others read; then it can ready up for the rematch.
func TestLateRejoinLandsInTheLobbyWithTheResults(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game; not in -short")
	}
	hcfg := host.LAN()
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	sess := func(i int, token [16]byte) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Token = fmt.Sprintf("p%d", i), [16]byte{byte(i + 1)}, token
		return sc
	}
	dial := func(i int, token [16]byte) *Client {
		ctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		defer cancel()
		c, err := Dial(ctx, hs.Addr(), Options{Session: sess(i, token)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	players := []*Client{Attach(pipe, Options{Session: sess(0, [16]byte{})}), dial(1, [16]byte{}), dial(2, [16]byte{})}
	wait := func(what string, cond func() bool) {
		t.Helper()
		if !testwait.Until(migrationPatience, cond) {
			for i, p := range players {
				p.Do(func(s *lockstep.Session) {
					t.Logf("player %d: phase %v slot %d roster %+v", i, s.Phase(), s.Slot(), s.SetupState().Players)
				})
			}
			t.Fatalf("waited %v for %s", migrationPatience, what)
		}
	}
	wait("everyone in the lobby", func() bool {
		return all(players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	for _, p := range players {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("everyone ready", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return true
		})
	})
	players[0].Do(func(s *lockstep.Session) { s.RequestStart() })
	wait("the game running", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 30
		})
	})
	var token [16]byte
	slot := -1
	players[2].Do(func(s *lockstep.Session) { token, slot = s.Token(), s.Slot() })
	players[2].Abandon() // a crash: the room hears nothing more
	stay := players[:2]
	wait("the crashed player seen gone", func() bool {
		gone := false
		players[0].Do(func(s *lockstep.Session) {
			for _, p := range s.SetupState().Players {
				gone = gone || int(p.Slot) == slot && !p.Connected
			}
		})
		return gone
	})
	players[0].Do(func(s *lockstep.Session) { s.EndGame() })
	wait("the game over for the two", func() bool {
		return all(stay, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
	})
	var want game.Results
	players[0].Do(func(s *lockstep.Session) { want, _ = s.Results() })
	for _, p := range stay {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) }) // Back to lobby
	}
	wait("the two back in the room's lobby", func() bool {
		return all(stay, func(s *lockstep.Session) bool {
			return s.Phase() == lockstep.Lobby && s.RoomStatus().State == wire.StateSetup
		})
	})
	back := dial(2, token)
	players = append(players, back)
	wait("the returning player in the lobby, in its seat, with the results", func() bool {
		ok := false
		back.Do(func(s *lockstep.Session) {
			r, _, has := s.AwayResults()
			ok = s.Phase() == lockstep.Lobby && s.Slot() == slot && has && r.Digest() == want.Digest()
		})
		return ok
	})
	back.Do(func(s *lockstep.Session) { s.SetReady(true) })
	wait("the returning player ready in everyone's lobby", func() bool {
		return all([]*Client{players[0], players[1], back}, func(s *lockstep.Session) bool {
			for _, p := range s.SetupState().Players {
				if int(p.Slot) == slot {
					return p.Ready && p.Connected
				}
			}
			return false
		})
	})
}
