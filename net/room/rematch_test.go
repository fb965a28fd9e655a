package room_test

import (
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestRematchWaitsForTheEnd: a Ready for a rematch made while another
// player still lacks the game's last master turns is held, so that the
// room keeps resending them and that player's game reaches its end; it is
// taken once every player has acknowledged them, or after SilenceTimeout
// (one that acknowledges nothing is not waited for).
func TestRematchWaitsForTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name     string
		guestAck bool          // the guest acknowledges the last turns
		wait     time.Duration // virtual time after the host's Ready
		want     wire.RoomState
	}{
		{"held while the guest lacks the end", false, 100 * time.Millisecond, wire.StateFinished},
		{"taken once the guest has the end", true, 20 * time.Millisecond, wire.StateSetup},
		{"taken after SilenceTimeout without the guest", false, 0, wire.StateSetup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			b.startGame(2)
			b.r.EndGame()
			b.playIdle(0, 2)
			if st, _ := b.r.State(); st != wire.StateFinished {
				t.Fatalf("state %d, want finished", st)
			}
			b.ack(1)
			b.send(1, wire.Ready{Ready: true}) // the host: "back to the lobby" at once
			if st, _ := b.r.State(); st != wire.StateFinished {
				t.Fatalf("state %d right after the host's Ready, want finished: the guest lacks the end", st)
			}
			masters(b.peer(2))
			wait := tc.wait
			if wait == 0 {
				wait = room.LAN().SilenceTimeout + 100*time.Millisecond
			}
			for elapsed := time.Duration(0); elapsed < wait; elapsed += 10 * time.Millisecond {
				if tc.guestAck {
					b.ack(2)
				} else {
					b.send(2, wire.Ping{}) // there, but its acknowledgements are lost
				}
				b.send(1, wire.Ping{})
				b.tick(10 * time.Millisecond)
			}
			st, _ := b.r.State()
			if st != tc.want {
				t.Fatalf("state %d after %v, want %d", st, wait, tc.want)
			}
			if st == wire.StateFinished && len(masters(b.peer(2))) == 0 {
				t.Fatal("the room held the rematch but did not resend the last turns")
			}
			if st == wire.StateSetup {
				if ss, ok := last[wire.SetupState](b.peer(1)); !ok || !ss.Players[0].Ready {
					t.Fatalf("host's roster %+v: want the held Ready taken", ss.Players)
				}
			}
		})
	}
}
