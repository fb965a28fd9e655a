package client

import (
	"fmt"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// lobbyView is what a player's lobby shows of its room, as the session
// publishes it: the room's name, game and id, and the roster (slots,
// names, ready marks, host, connected), pings left out (each measured
// apart).
func lobbyView(s *lockstep.Session) string {
	st := s.SetupState()
	v := fmt.Sprintf("%q game %d room %d:", st.Name, st.Game, st.RoomID)
	for _, p := range st.Players {
		v += fmt.Sprintf(" [%d %s ready=%v host=%v conn=%v]", p.Slot, p.Name, p.Ready, p.Host, p.Connected)
	}
	return v
}

// TestRematchLobbyAfterAMove: over real sockets on loopback, four play;
// the host's machine dies and the three guests play on at the first
// successor, which ends the game; two of them press Back to lobby (a
// Ready), the third stays on its results. The rematch's lobby reaches
// every screen (before, the successor's own player never acknowledged the
// last turn and the room held the rematch for its 3 s silence timeout:
// TestEveryPlayerAcknowledgesTheEnd in net/lockstep fails on that), and
// every player's lobby is the same (name, room, roster, ready marks as
// pressed, one host, the successor), and the roster's pings are measured
// by the successor's room: a figure for every player there, not "–".
func TestRematchLobbyAfterAMove(t *testing.T) {
	m := startMigrationGame(t)
	m.killHost()
	m.playOnInOneRoom(time.Now(), "the host's death")
	first, firstSlot := m.guests[0], int(m.list.List[0].Slot)
	pressed := m.guests[:2] // the first successor and one other press Back to lobby
	for _, g := range pressed {
		g.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	m.wait("the rematch's lobby on every screen", func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			return s.RoomStatus().State == wire.StateSetup && s.SetupState().Game == 2
		}) && all(pressed, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Lobby })
	})
	// Every screen the same: poll until they agree (a round trip on
	// loopback is well under a second), then check they stay so.
	views := func() []string {
		out := make([]string, len(m.guests))
		for i, g := range m.guests {
			g.Do(func(s *lockstep.Session) { out[i] = lobbyView(s) })
		}
		return out
	}
	same := func(vs []string) bool {
		for _, v := range vs[1:] {
			if v != vs[0] {
				return false
			}
		}
		return true
	}
	if !testwait.Until(migrationPatience, func() bool { return same(views()) }) {
		for i, v := range views() {
			t.Logf("player %d: %s", i, v)
		}
		t.Fatal("the three lobbies never agreed")
	}
	pressedSlot := map[int]bool{}
	for i, g := range m.guests {
		g.Do(func(s *lockstep.Session) { pressedSlot[s.Slot()] = i < 2 })
	}
	first.Do(func(s *lockstep.Session) {
		hosts := 0
		for _, p := range s.SetupState().Players {
			if p.Host {
				hosts++
				if int(p.Slot) != firstSlot {
					t.Errorf("the lobby names slot %d host, want the successor's %d", p.Slot, firstSlot)
				}
			}
			if w, ok := pressedSlot[int(p.Slot)]; !ok {
				t.Errorf("slot %d in the rematch's roster is no player of the game that moved: %+v", p.Slot, p)
			} else if p.Ready != w {
				t.Errorf("slot %d ready=%v in the rematch lobby, pressed %v", p.Slot, p.Ready, w)
			}
		}
		if hosts != 1 {
			t.Errorf("%d hosts in the roster, want 1", hosts)
		}
	})
	m.wait("a ping measured for every player of the successor's room", func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			ps := s.SetupState().Players
			for _, p := range ps {
				if p.Connected && p.Ping == 0 {
					return false
				}
			}
			return len(ps) == 3
		})
	})
}
