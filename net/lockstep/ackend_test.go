package lockstep_test

import (
	"fmt"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestEveryPlayerAcknowledgesTheEnd: when the host ends a game, every
// player's session acknowledges the room's last master turn, the host's
// own too, whose "finished" may come before it ran that turn: the room
// has nothing left undelivered (room.Room.EndUndelivered), so a rematch
// asked then is not held for the room's silence timeout (3 s on every
// screen, and the lobbies disagree meanwhile: issue 52 item 7).
func TestEveryPlayerAcknowledgesTheEnd(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			l := newLocal(t, bots.Config{Bots: 3, Ticks: 1 << 30, Seed: seed, Manual: true})
			m := manual{t, l}
			m.until("all in the lobby", func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
			m.play(1, 3, l.Bots...)
			m.until("a while of game", ticks(200))
			m.end()
			err := l.RunUntil(func() bool { return !l.Room.EndUndelivered() }, l.Now()+time.Second)
			if err != nil {
				t.Fatalf("a second after the end everywhere, the room still waits for a player's acknowledgement of the last turns: %v", err)
			}
			l.Bots[1].Session.SetReady(true) // Back to lobby
			err = l.RunUntil(func() bool { st, _ := l.Room.State(); return st == wire.StateSetup }, l.Now()+time.Second)
			if err != nil {
				t.Fatalf("the rematch was held: %v", err)
			}
		})
	}
}
