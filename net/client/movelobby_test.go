package client

import (
	"slices"
	"testing"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestLobbyMovesToTheServer: a lobby moves to the host's known community
// server as a game does (docs/ARCHITECTURE.md, "A server as the last
// successor"). Ada hosts a lobby in-process with the server "Friday
// night" known; Bob, Cy and Dee keep standby ports, none of which anybody
// can reach (every dial between the players fails). Ada changes the
// setup, Bob presses Ready, Cy says a chat line; then Ada's machine dies.
// The three meet in one room on the server, a lobby with the setup, Bob
// ready and the others not (as they pressed), Cy's line in every chat,
// Ada's seat held, and each is told where the lobby went. Ada comes back
// on a new program with her token to the room the others report, and
// reads the lobby's chat there. They press Ready, the room's stand-in
// host starts, and the game ends on one hash.
// (Before, a lobby was not moved to a server: it ended for everyone.)
func TestLobbyMovesToTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket lobby and game; not in -short")
	}
	m, server := serverLobby(t)
	ada, guests := m.players[0], m.guests
	bob, cy := guests[0], guests[1]
	setup := game.Setup{Mode: game.Versus, Lives: 7, StartWave: 4, FriendlyFire: true}
	ada.Do(func(s *lockstep.Session) { s.ChangeSetup(setup) })
	bob.Do(func(s *lockstep.Session) { s.SetReady(true) })
	cy.Do(func(s *lockstep.Session) { s.Say("see you on the server") })
	m.wait("the setup, Bob's mark, Cy's line, and every successor flagged unreached with the server listed, everywhere", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			sc := s.Successors()
			if len(sc.List) != 3 || len(sc.Servers) != 1 || s.SetupState().Setup.Options() != setup.Options() {
				return false
			}
			for _, c := range sc.List {
				if !c.Unreached {
					return false
				}
			}
			return readyAsPressed(s, "Bob") && hasLine(s, "see you on the server")
		})
	})

	var adaToken [16]byte
	ada.Do(func(s *lockstep.Session) { adaToken = s.Token() })
	m.killHost() // Ada's machine dies in the lobby
	m.wait("the three in one lobby on the server", func() bool { return inServerRoom(guests, server, lockstep.Lobby) })
	checkMovedLobby(t, guests, setup)

	// Ada's program starts again and she presses Rejoin: her token, to
	// the server's room the others report (as her window's session.json
	// would keep it).
	id, secret := bob.ServerRoom()
	sc := lobbySession("Ada", 1, adaToken)
	sc.RoomID, sc.RoomSecret = id, secret
	back := dialLobby(t, server, Options{Session: sc, Input: func(uint32) game.Input { return game.Up }})
	m.players = append(m.players, back)
	m.wait("Ada back in her seat in the server's lobby, with its chat", func() bool {
		in := false
		back.Do(func(s *lockstep.Session) {
			in = s.Phase() == lockstep.Lobby && s.Slot() == 0 && s.SetupState().RoomID == id && hasLine(s, "see you on the server")
		})
		return in
	})
	m.guests = append(guests, back)
	for _, g := range m.guests {
		g.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	m.wait("the four ready, and one of them hosting the server's lobby", func() bool {
		hosts := 0
		ok := all(m.guests, func(s *lockstep.Session) bool {
			if s.IsHost() {
				hosts++
			}
			return readyAsPressed(s, "Ada", "Bob", "Cy", "Dee")
		})
		return ok && hosts == 1
	})
	for _, g := range m.guests {
		g.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.RequestStart()
			}
		})
	}
	m.wait("the game running on the server for the four", func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 60
		})
	})
	m.endOnOneHash(m.guests)
}

// serverLobby starts Ada's lobby, hosted in-process with the community
// server "Friday night" known (started here, at the address returned),
// and Bob, Cy and Dee in it with standby ports that nobody can reach
// (every dial between the players fails). Ada is players[0]; the guests
// are guests, and play the game that follows with bots' inputs.
func serverLobby(t *testing.T) (*migrationGame, string) {
	t.Helper()
	srv := hosttest.Start(t, transport.LAN(), host.LAN())
	server := srv.Addr()
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hcfg.Room.Fallback = []wire.FallbackServer{{Name: "Friday night", Addr: server}}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	hostAddr := hs.Addr()
	blockDials(t, func(c *Client, addr string) bool { return addr != server && addr != hostAddr })

	ada := Attach(pipe, Options{Session: lobbySession("Ada", 1, [16]byte{})})
	var guests []*Client
	for i, name := range []string{"Bob", "Cy", "Dee"} {
		o := standbyGuest(name, byte(i+2))
		o.Input = func(turn uint32) game.Input {
			if (turn/30+uint32(i))%3 == 0 {
				return game.Left | game.Fire
			}
			return game.Up
		}
		guests = append(guests, dialLobby(t, hostAddr, o))
	}
	m := &migrationGame{t: t, srv: hs.Transport, players: append([]*Client{ada}, guests...), guests: guests}
	m.wait("everyone in the lobby", func() bool {
		return all(m.players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 4 })
	})
	return m, server
}

// checkMovedLobby checks the lobby each of guests sees on the server: the
// setup, Bob's ready mark alone, Ada's seat held, Cy's line in the chat.
func checkMovedLobby(t *testing.T, guests []*Client, setup game.Setup) {
	t.Helper()
	for i, g := range guests {
		g.Do(func(s *lockstep.Session) {
			st := s.SetupState()
			if st.Setup.Options() != setup.Options() {
				t.Errorf("guest %d: setup %+v on the server, want %+v", i+1, st.Setup.Options(), setup.Options())
			}
			if !readyAsPressed(s, "Bob") {
				t.Errorf("guest %d: the ready marks on the server are not as pressed (Bob only): %+v", i+1, st.Players)
			}
			if !slices.ContainsFunc(st.Players, func(p wire.Player) bool { return p.Name == "Ada" && !p.Connected && !p.Host }) {
				t.Errorf("guest %d: Ada's seat is not held on the server: %+v", i+1, st.Players)
			}
			if !hasLine(s, "see you on the server") {
				t.Errorf("guest %d: Cy's line is gone from the chat", i+1)
			}
		})
	}
}

// readyAsPressed reports whether s's roster shows ready exactly the
// players named.
func readyAsPressed(s *lockstep.Session, names ...string) bool {
	for _, p := range s.SetupState().Players {
		if p.Ready != slices.Contains(names, p.Name) {
			return false
		}
	}
	return true
}

// hasLine reports whether s's chat holds the line text.
func hasLine(s *lockstep.Session, text string) bool {
	return slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == text })
}
