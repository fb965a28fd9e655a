package client

import (
	"testing"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestLobbyStartsWithoutTheCrashedHost: over real sockets on loopback,
// Ada hosts a lobby with Bob and Cy (standby ports); Ada's machine dies
// and the lobby goes on at the first successor with Ada's seat held. The
// guests' lobbies show the seat held and the seconds left (the room's
// status: Vacant, VacancyMs), and when Bob and Cy are ready the new host
// starts without Ada, at once, not at the end of her 30 s: the game runs
// for the two, Ada's seat released.
func TestLobbyStartsWithoutTheCrashedHost(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket lobby; not in -short")
	}
	hs, pipe := handoverHost(t, game.Setup{})
	ada := Attach(pipe, Options{Session: lobbySession("Ada", 1, [16]byte{})})
	guests := []*Client{dialLobby(t, hs.Addr(), standbyGuest("Bob", 2)), dialLobby(t, hs.Addr(), standbyGuest("Cy", 3))}
	wait := func(what string, cond func() bool) {
		t.Helper()
		if !testwait.Until(migrationPatience, cond) {
			for i, p := range guests {
				p.Do(func(s *lockstep.Session) {
					t.Logf("guest %d: phase %v slot %d, status %+v, roster %+v", i, s.Phase(), s.Slot(), s.RoomStatus(), s.SetupState().Players)
				})
			}
			t.Fatalf("waited %v for %s", migrationPatience, what)
		}
	}
	var firstSlot int
	wait("both guests listed as the lobby's successors", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			firstSlot = -1
			if l := s.Successors(); len(l.List) == 2 && l.Game == s.SetupState().Game {
				firstSlot = int(l.List[0].Slot)
			}
			return firstSlot >= 0 && len(s.SetupState().Players) == 3
		})
	})
	hs.Transport.Abandon()
	ada.Abandon()
	wait("the lobby at the first successor, Ada's seat shown held with the time left", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			st := s.RoomStatus()
			return s.Phase() == lockstep.Lobby && !s.Migrating() && hostIs(s, firstSlot) &&
				st.State == wire.StateSetup && st.Vacant == 1 && st.VacancyMs > 0
		})
	})
	for _, g := range guests {
		g.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("Bob and Cy ready", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			n := 0
			for _, p := range s.SetupState().Players {
				if p.Ready && p.Connected {
					n++
				}
			}
			return n == 2
		})
	})
	for _, g := range guests {
		g.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.RequestStart()
			}
		})
	}
	wait("the game running for the two, Ada's seat released", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 30 && len(s.SetupState().Players) == 2
		})
	})
	for i, g := range guests {
		g.Do(func(s *lockstep.Session) {
			if n := s.SetupState().Setup.Players; n&1 != 0 {
				t.Errorf("guest %d: the game's players %08b include Ada's slot", i, n)
			}
		})
	}
}
