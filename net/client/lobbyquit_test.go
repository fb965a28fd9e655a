package client

import (
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestLobbyHostQuits: over real sockets on loopback, Ada hosts a lobby
// (in-process, as the Host button does, with Handover as a window's) with
// Bob and Cy, who keep standby ports; Bob presses Ready, Cy says a line.
// Ada presses Leave: her player leaves and her room stops. The guests do
// not lose the room (before, both were sent to the main menu): they meet
// at the first successor's lobby with the setup, Bob's Ready and Cy's
// line, the successor hosting, Ada's seat not held (she left by choice),
// and no guest ever said "waiting for the host…" (the host said it is
// going: there is no silence to wait out).
func TestLobbyHostQuits(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket lobby; not in -short")
	}
	hs, pipe := handoverHost(t, game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1})
	ada := AttachOwner(hs.Host, pipe, Options{Session: lobbySession("Ada", 1, [16]byte{})})
	bob, cy := dialLobby(t, hs.Addr(), standbyGuest("Bob", 2)), dialLobby(t, hs.Addr(), standbyGuest("Cy", 3))
	guests := []*Client{bob, cy}
	players := []*Client{ada, bob, cy}
	wait := func(what string, cond func() bool) {
		t.Helper()
		if !testwait.Until(migrationPatience, cond) {
			for i, p := range players {
				p.Do(func(s *lockstep.Session) {
					n, hs := p.Handovers()
					t.Logf("player %d: phase %v slot %d, %d moves (host %d), migration %v (%v), roster %+v, successors %+v, chat %+v", i, s.Phase(), s.Slot(), n, hs, p.m.Phase(), p.m.Why(), s.SetupState().Players, s.Successors(), s.Chat())
				})
			}
			t.Fatalf("waited %v for %s", migrationPatience, what)
		}
	}
	wait("everyone in the lobby", func() bool {
		return all(players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	bob.Do(func(s *lockstep.Session) { s.SetReady(true) })
	cy.Do(func(s *lockstep.Session) { s.Say("one more?") })
	var list wire.Successors
	wait("Bob ready, Cy's line and both guests listed as successors, everywhere", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			ready := slices.ContainsFunc(s.SetupState().Players, func(p wire.Player) bool { return p.Name == "Bob" && p.Ready })
			if s.Slot() == 0 {
				list = s.Successors()
			}
			return len(s.SetupState().Players) == 3 && len(s.Successors().List) == 2 && ready &&
				slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == "one more?" })
		})
	})
	firstSlot := int(list.List[0].Slot)
	first := cy
	bob.Do(func(s *lockstep.Session) {
		if s.Slot() == firstSlot {
			first = bob
		}
	})

	// Ada presses Leave: her window closes its player, then its room
	// (ui netGame.close).
	var silent bool
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			for _, g := range guests {
				g.Do(func(s *lockstep.Session) { silent = silent || s.LobbySilence() >= lockstep.SilentAfter })
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	ada.Close()
	if err := hs.Stop(); err != nil {
		t.Errorf("Ada's room stopping: %v", err)
	}
	wait("one lobby: the first successor's, both guests in it, the successor hosting", func() bool {
		// The successor's move is announced once its own session is back
		// in the lobby it opened (migrate.Machine.hostsLobby): before, it
		// may still read the old room's roster, which names it host once
		// Ada left.
		if n, _ := first.Handovers(); n != 1 || !first.Hosting() {
			return false
		}
		return all(guests, func(s *lockstep.Session) bool {
			return s.Phase() == lockstep.Lobby && !s.Migrating() && s.SetupState().RoomID != 0 && hostIs(s, firstSlot)
		})
	})
	close(stop)
	<-watched
	if silent {
		t.Error(`a guest said "waiting for the host…" though the host said it was going`)
	}
	for i, g := range guests {
		if n, slot := g.Handovers(); n != 1 || slot != firstSlot {
			t.Errorf("guest %d: %d moves to slot %d, want 1 to slot %d", i, n, slot, firstSlot)
		}
		g.Do(func(s *lockstep.Session) {
			if ph := s.Phase(); ph != lockstep.Lobby {
				t.Errorf("guest %d: phase %v, want lobby", i, ph)
			}
			names := []string{}
			for _, p := range s.SetupState().Players {
				names = append(names, p.Name)
				if p.Name == "Bob" && !p.Ready {
					t.Errorf("guest %d: Bob pressed Ready, and is not ready at the successor", i)
				}
			}
			if slices.Contains(names, "Ada") {
				t.Errorf("guest %d: Ada left by choice and her seat is held: %v", i, names)
			}
			if len(names) != 2 {
				t.Errorf("guest %d: roster %v, want Bob and Cy", i, names)
			}
			if !slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == "one more?" }) {
				t.Errorf("guest %d: Cy's line is gone", i)
			}
		})
	}
	// The lobby is a room: both ready, its host starts the game.
	for _, g := range guests {
		g.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("both ready", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			return !slices.ContainsFunc(s.SetupState().Players, func(p wire.Player) bool { return !p.Ready })
		})
	})
	first.Do(func(s *lockstep.Session) { s.RequestStart() })
	wait("the game running for the two", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 30
		})
	})
}

// TestLobbyHostQuitsAlone: a host alone in its lobby that presses Leave
// closes its room; nothing is handed to anyone.
func TestLobbyHostQuitsAlone(t *testing.T) {
	hcfg := host.LAN()
	hcfg.Handover = true
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID = "Ada", [16]byte{1}
	ada := AttachOwner(hs.Host, pipe, Options{Session: sc})
	if !testwait.Until(migrationPatience, func() bool {
		ok := false
		ada.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	}) {
		t.Fatal("Ada never in her lobby")
	}
	ada.Close()
	if err := hs.Stop(); err != nil {
		t.Errorf("Ada's room stopping: %v", err)
	}
	if n, _ := ada.Handovers(); n != 0 || ada.Hosting() {
		t.Errorf("Ada alone: %d moves, hosting %v; want the room simply closed", n, ada.Hosting())
	}
}
