package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// movedToServer starts a migrationGame whose host knows the community
// server "Friday night", makes every dial between the players fail (so
// the room flags every successor Unreached), kills the host's machine and
// waits until the three guests play in one room on the server. It
// returns the game and the server's address.
func movedToServer(t *testing.T) (*migrationGame, string) {
	t.Helper()
	srv := hosttest.Start(t, transport.LAN(), host.LAN())
	server := srv.Addr()
	m := startMigrationGameAs(t, migrationSetup{fallback: []wire.FallbackServer{{Name: "Friday night", Addr: server}}})
	hostAddr := m.srv.Addr().String()
	blockDials(t, func(c *Client, addr string) bool { return addr != server && addr != hostAddr })
	m.wait("every successor flagged unreached, and the server listed", func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			sc := s.Successors()
			if len(sc.List) != 3 || len(sc.Servers) != 1 {
				return false
			}
			for _, c := range sc.List {
				if !c.Unreached {
					return false
				}
			}
			return true
		})
	})
	killed := time.Now()
	m.killHost()
	m.wait("every guest in one room on the server", func() bool { return inServerRoom(m.guests, server, lockstep.Playing) })
	t.Logf("one room on the server %v after the host was killed", time.Since(killed).Round(time.Millisecond))
	return m, server
}

// TestRejoinAfterTheMoveToTheServer: a player whose game moved to a room
// on a community server crashes there, and comes back as a restarted
// window does: a fresh client dials the server with its token and the
// room the first client reported (ServerRoom: the moved room's id and
// secret, which the window keeps in session.json). It is back in the same
// game, in its own slot, and the three end it on one hash. (Before, the
// client dropped the server's answer naming the room, and a Rejoin named
// the server's default room, which holds no such game.)
func TestRejoinAfterTheMoveToTheServer(t *testing.T) {
	m, server := movedToServer(t)
	victim := m.guests[2]
	id, secret := victim.ServerRoom()
	var (
		token [16]byte
		slot  int
		inID  uint32
	)
	victim.Do(func(s *lockstep.Session) { token, slot, inID = s.Token(), s.Slot(), s.SetupState().RoomID })
	if id == 0 || id != inID || secret == 0 {
		t.Fatalf("the client reports the server's room %d with secret %x; its session plays in room %d: want that room and its secret", id, secret, inID)
	}
	if id, secret := m.guests[0].ServerRoom(); id != inID || secret == 0 {
		t.Errorf("another guest reports room %d (secret %x), want %d", id, secret, inID)
	}
	victim.Abandon() // a crash: no word to the room

	sc := lockstep.LAN()
	sc.Name, sc.PlayerID, sc.Predict = "back", [16]byte{0xbb}, true
	sc.RoomID, sc.RoomSecret, sc.Token = id, secret, token
	ctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
	back, err := Dial(ctx, server, Options{Session: sc, Input: func(uint32) game.Input { return game.Up }})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(back.Close)
	m.guests[2] = back
	m.wait("the crashed player back in the moved game, in its slot", func() bool {
		in := false
		back.Do(func(s *lockstep.Session) {
			in = s.Phase() == lockstep.Playing && s.Slot() == slot && s.SetupState().RoomID == id
		})
		return in
	})
	m.playOnTogether("the three to play on together on the server", m.guests[0], 60)
	m.endOnOneHash(m.guests)
}

// TestHostRejoinsTheMovedGame: the host whose machine died (which moved
// the game to the server: no player could carry it on) comes back on a
// new program. It never saw the move, nor the room's id and secret; it
// finds the room by the game's move key, which its window can make from
// the successor list it last read (RejoinMoved), and is back in its slot
// of the same game, which the four end on one hash. A key of no game
// moved there finds nothing, in words (ErrNoMovedGame).
func TestHostRejoinsTheMovedGame(t *testing.T) {
	m, server := movedToServer(t)
	var (
		token [16]byte
		slot  int
		list  wire.Successors
	)
	m.players[0].Do(func(s *lockstep.Session) { token, slot, list = s.Token(), s.Slot(), s.Successors() })
	var inID uint32
	m.guests[0].Do(func(s *lockstep.Session) { inID = s.SetupState().RoomID })
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID, sc.Predict, sc.Token = "p0", [16]byte{1}, true, token
	opt := Options{Session: sc, Input: func(uint32) game.Input { return game.Up }}

	ctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
	defer cancel()
	if c, _, err := RejoinMoved(ctx, server, [16]byte{0xee}, opt); !errors.Is(err, ErrNoMovedGame) {
		if c != nil {
			c.Close()
		}
		t.Fatalf("RejoinMoved with a key of no moved game: %v, want %v", err, ErrNoMovedGame)
	}
	back, id, err := RejoinMoved(ctx, server, migrate.MoveKey(list), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(back.Close)
	if id != inID || back.RoomSecret() == 0 {
		t.Errorf("RejoinMoved found room %d (secret %x), the guests play in %d", id, back.RoomSecret(), inID)
	}
	m.guests = append(m.guests, back)
	m.wait("the host back in the moved game, in its slot", func() bool {
		in := false
		back.Do(func(s *lockstep.Session) {
			in = s.Phase() == lockstep.Playing && s.Slot() == slot && s.SetupState().RoomID == id
		})
		return in
	})
	m.playOnTogether("the four to play on together on the server", m.guests[0], 60)
	m.endOnOneHash(m.guests)
}

// inServerRoom reports whether every one of guests is in one room (not
// the default one) of the community server "Friday night" at server, in
// phase, none of them hosting.
func inServerRoom(guests []*Client, server string, phase lockstep.Phase) bool {
	room := uint32(0)
	for i, g := range guests {
		name, ok := g.Server()
		if !ok || name != "Friday night" || g.Hosting() || g.HostAddr() != server {
			return false
		}
		in := false
		g.Do(func(s *lockstep.Session) {
			id := s.SetupState().RoomID
			in = s.Phase() == phase && !s.Migrating() && id != 0 && id != host.DefaultRoom && (i == 0 || id == room)
			room = id
		})
		if !in {
			return false
		}
	}
	return true
}
