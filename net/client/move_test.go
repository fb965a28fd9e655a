package client

import (
	"strings"
	"testing"

	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestGameMovesToTheServer: "a server as the last successor" (issue 52
// item 3; docs/ARCHITECTURE.md, "When the host goes away"). The host knows
// a community server, which travels with the game; no player can reach
// any other's standby port (every dial between them fails, as behind NATs
// without a mapping), so the room flags every successor Unreached. The
// host's machine dies: every guest goes to the server, the three meet in
// one room there (never two), play on to the end on one hash with no
// desync, nobody takes the game alone, and each is told where the game
// went. Without the server the game ends for everyone (ErrNoSuccessor:
// TestMajority's "no reachable successor, no server").
func TestGameMovesToTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	m, _ := movedToServer(t)
	if got := MovedText("Friday night"); !strings.Contains(got, "moved to the server Friday night") {
		t.Errorf("MovedText = %q", got)
	}
	m.playOnTogether("the three to play on together on the server", m.guests[0], 60)
	m.endOnOneHash(m.guests)
	for i, g := range m.guests {
		g.Do(func(s *lockstep.Session) {
			if n := s.Stats().MalformedIn; n != 0 {
				t.Errorf("guest %d counted %d frames as malformed (the server's answer to the move is the client's)", i+1, n)
			}
		})
		if g.Hosting() {
			t.Errorf("guest %d hosts a game of its own", i+1)
		}
	}
}

// TestServerRoomKeepsTheMajorityRule: the server's room of a moved game
// plays only with a strict majority of the game's members, as every room
// does. Four players, the host's machine killed, nobody reaching anybody,
// and the last guest cannot reach the server either: the two that reach
// it are half of the four members, no majority, so the room holds the
// game there ("lost contact with …") instead of playing it on as theirs;
// the third, reaching nothing, says the game could not go on.
func TestServerRoomKeepsTheMajorityRule(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	srv := hosttest.Start(t, transport.LAN(), host.LAN())
	server := srv.Addr()
	m := startMigrationGameAs(t, migrationSetup{fallback: []wire.FallbackServer{{Name: "Friday night", Addr: server}}})
	hostAddr := m.srv.Addr().String()
	cutOff := m.guests[2]
	blockDials(t, func(c *Client, addr string) bool {
		return addr != hostAddr && (addr != server || c == cutOff)
	})
	m.wait("every successor flagged unreached", func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			sc := s.Successors()
			for _, c := range sc.List {
				if !c.Unreached {
					return false
				}
			}
			return len(sc.List) == 3
		})
	})
	m.killHost()
	two := m.guests[:2]
	m.wait("the two in the server's room, held apart", func() bool {
		for _, g := range two {
			if _, ok := g.Server(); !ok {
				return false
			}
		}
		return all(two, func(s *lockstep.Session) bool {
			_, apart := s.Apart()
			return s.Phase() == lockstep.Playing && !s.Migrating() && apart
		})
	})
	var turns [2]uint32
	for i, g := range two {
		g.Do(func(s *lockstep.Session) { turns[i], _ = s.ExecutedTurns() })
	}
	m.wait("the guest that reaches nothing to give up", func() bool {
		select {
		case <-cutOff.Done():
			return true
		default:
			return false
		}
	})
	if err := cutOff.Err(); err == nil || !strings.Contains(err.Error(), "no other player could carry the game on") {
		t.Errorf("the guest that reaches nothing ended with %v, want that no one could carry the game on", err)
	}
	for i, g := range two {
		g.Do(func(s *lockstep.Session) {
			turn, _ := s.ExecutedTurns()
			_, apart := s.Apart()
			if turn != turns[i] || !apart {
				t.Errorf("guest %d on the server: turn %d (was %d), apart %v; want the game held without a majority", i+1, turn, turns[i], apart)
			}
		})
	}
}
