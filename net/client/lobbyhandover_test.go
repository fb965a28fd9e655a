package client

import (
	"fmt"
	"slices"
	"testing"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestLobbySurvivesItsHost: over real sockets on loopback, Ada hosts a
// lobby (in-process, as the Host button does) with Bob and Cy, who keep
// standby ports. Ada changes the setup, Bob presses Ready, Cy says a chat
// line; then Ada's machine dies. The guests say "waiting for the host…"
// (the lobby's silence passes lockstep.SilentAfter) before anything moves,
// then meet in the first successor's lobby: the same setup, Bob ready and
// Cy not (as they pressed), the successor hosting, Cy's line still in
// every guest's chat, Ada's seat held. Ada comes back with her token (a
// Rejoin) and is in her seat, a guest; the lobby plays its game from there.
func TestLobbySurvivesItsHost(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket lobby; not in -short")
	}
	hs, pipe := handoverHost(t, game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1})
	ada := Attach(pipe, Options{Session: lobbySession("Ada", 1, [16]byte{})})
	guests := []*Client{dialLobby(t, hs.Addr(), standbyGuest("Bob", 2)), dialLobby(t, hs.Addr(), standbyGuest("Cy", 3))}
	bob, cy := guests[0], guests[1]
	players := []*Client{ada, bob, cy}
	wait := func(what string, cond func() bool) {
		t.Helper()
		if !testwait.Until(migrationPatience, cond) {
			for i, p := range players {
				p.Do(func(s *lockstep.Session) {
					n, hs := p.Handovers()
					t.Logf("player %d: phase %v slot %d, %d moves (host %d), migration %v (%v), roster %+v", i, s.Phase(), s.Slot(), n, hs, p.m.Phase(), p.m.Why(), s.SetupState().Players)
				})
			}
			t.Fatalf("waited %v for %s", migrationPatience, what)
		}
	}
	wait("everyone in the lobby", func() bool {
		return all(players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	setup := game.Setup{Mode: game.Versus, Lives: 7, StartWave: 4, FriendlyFire: true}
	ada.Do(func(s *lockstep.Session) { s.ChangeSetup(setup) })
	wait("the new setup everywhere", func() bool {
		return all(players, func(s *lockstep.Session) bool { return s.SetupState().Setup.Options() == setup.Options() })
	})
	bob.Do(func(s *lockstep.Session) { s.SetReady(true) })
	cy.Do(func(s *lockstep.Session) { s.Say("gg, one more?") })
	var adaToken [16]byte
	ada.Do(func(s *lockstep.Session) { adaToken = s.Token() })
	var list wire.Successors
	wait("Bob ready, Cy's line and both guests listed as the lobby's successors, everywhere", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			l := s.Successors()
			ready := false
			for _, p := range s.SetupState().Players {
				ready = ready || p.Name == "Bob" && p.Ready
			}
			if s.Slot() == 0 {
				list = l
			}
			return len(l.List) == 2 && ready && slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == "gg, one more?" })
		})
	})
	first, other := bob, cy
	var firstSlot int
	bob.Do(func(s *lockstep.Session) { firstSlot = s.Slot() })
	if int(list.List[0].Slot) != firstSlot {
		first, other = cy, bob
		firstSlot = int(list.List[0].Slot)
	}

	// Ada's machine dies: her socket and her player fall silent at once.
	hs.Transport.Abandon()
	ada.Abandon()
	silent := false
	wait("a guest to say the host is silent, or the lobby to have moved", func() bool {
		moved := false
		other.Do(func(s *lockstep.Session) { silent = s.LobbySilence() >= lockstep.SilentAfter })
		n, _ := other.Handovers()
		moved = n > 0
		return silent || moved
	})
	if !silent {
		t.Error("the lobby moved before its silence was said (LobbySilence never reached SilentAfter)")
	}
	wait("one lobby: the first successor's, with the other guest in it", func() bool {
		n, slot := other.Handovers()
		return first.Hosting() && n == 1 && slot == firstSlot && all(guests, func(s *lockstep.Session) bool {
			return s.Phase() == lockstep.Lobby && !s.Migrating() && s.SetupState().RoomID != 0 && hostIs(s, firstSlot)
		})
	})
	if n, _ := first.Handovers(); n != 1 {
		t.Errorf("the successor announces %d moves, want 1", n)
	}
	for i, g := range guests {
		g.Do(func(s *lockstep.Session) {
			st := s.SetupState()
			if st.Setup.Options() != setup.Options() {
				t.Errorf("guest %d: setup %+v at the successor, want %+v", i, st.Setup.Options(), setup.Options())
			}
			for _, p := range st.Players {
				switch p.Name {
				case "Bob":
					if !p.Ready {
						t.Errorf("guest %d: Bob pressed Ready, and is not ready at the successor", i)
					}
				case "Cy":
					if p.Ready {
						t.Errorf("guest %d: Cy never pressed Ready, and is shown ready at the successor", i)
					}
				case "Ada":
					if p.Connected || p.Host {
						t.Errorf("guest %d: Ada, crashed, is %+v at the successor; want held, not connected, not host", i, p)
					}
				}
			}
			if !slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == "gg, one more?" }) {
				t.Errorf("guest %d: Cy's line is gone from the chat", i)
			}
		})
	}

	// Ada's program starts again and she presses Rejoin: her token, to the
	// successor's standby port, trusting the key the list named.
	succ := list.List[0]
	o := Options{Session: lobbySession("Ada", 1, adaToken)}
	o.Transport = transport.LAN()
	o.Transport.HostFingerprint = fmt.Sprintf("%x", succ.Key[:])
	back := dialLobby(t, succ.Addr.String(), o)
	players = append(players, back)
	wait("Ada back in her seat, a guest of the successor's lobby", func() bool {
		return all([]*Client{back, first, other}, func(s *lockstep.Session) bool {
			for _, p := range s.SetupState().Players {
				if p.Name == "Ada" {
					return p.Slot == 0 && p.Connected && !p.Host && hostIs(s, firstSlot)
				}
			}
			return false
		})
	})
	back.Do(func(s *lockstep.Session) {
		if s.Slot() != 0 || s.Phase() != lockstep.Lobby || s.IsHost() {
			t.Errorf("Ada back: slot %d, phase %v, host %v; want slot 0, lobby, a guest", s.Slot(), s.Phase(), s.IsHost())
		}
		if !slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == "gg, one more?" }) {
			t.Errorf("Ada, back on a new program, lacks the lobby's chat: %+v", s.Chat())
		}
	})
	// The lobby is the room: everyone ready, its host starts the game.
	for _, p := range []*Client{back, first, other} {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("everyone ready at the successor", func() bool {
		ok := true
		first.Do(func(s *lockstep.Session) {
			for _, p := range s.SetupState().Players {
				ok = ok && p.Ready && p.Connected
			}
		})
		return ok
	})
	first.Do(func(s *lockstep.Session) { s.RequestStart() })
	wait("the game running for the three", func() bool {
		return all([]*Client{back, first, other}, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 30
		})
	})
	if ph := other.m.Phase(); ph != migrate.Following {
		t.Errorf("the other guest's migration is %v, want following", ph)
	}
}

// hostIs reports whether s's roster names slot as the host.
func hostIs(s *lockstep.Session, slot int) bool {
	for _, p := range s.SetupState().Players {
		if p.Host {
			return int(p.Slot) == slot
		}
	}
	return false
}
