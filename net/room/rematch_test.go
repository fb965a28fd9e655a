package room_test

import (
	"bytes"
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

// TestBackDuringTheResultsStaysForTheRematch: slot 2's player crashed,
// and came back with its token while the results showed (the room still
// finished); when the others press Back to lobby it goes to the lobby with
// them, seated and connected, not freed as a vacant seat with no one there.
func TestBackDuringTheResultsStaysForTheRematch(t *testing.T) {
	b := newBench(t, nil)
	ws := b.startGame(3)
	for turn := uint32(0); turn < 4; turn++ {
		b.playIdle(turn, 3)
	}
	b.r.Disconnected(b.now, 3)
	b.flush()
	b.send(1, wire.EndGame{})
	b.playIdle(4, 2)
	b.send(9, wire.Join{Name: "p", Token: ws[2].Token, PlayerID: [16]byte{3}})
	if w, ok := last[wire.Welcome](b.peer(9)); !ok || w.Slot != 2 || w.State != wire.StateFinished {
		t.Fatalf("back during the results: %+v (%v), want slot 2 in the finished room", w, ok)
	}
	b.ack(1)
	b.ack(2)
	b.send(1, wire.Ready{Ready: true})
	b.send(2, wire.Ready{Ready: true})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatalf("state %d after both pressed Back to lobby, want setup", st)
	}
	ss, ok := last[wire.SetupState](b.peer(9))
	if !ok {
		t.Fatal("the returned player was not sent the lobby's roster")
	}
	seated := false
	for _, p := range ss.Players {
		seated = seated || p.Slot == 2 && p.Connected
	}
	if !seated {
		t.Errorf("the lobby's roster %+v: want slot 2 seated and connected", ss.Players)
	}
}

// TestRejoinAfterTheRematchLobby: slot 2's player crashed during a game of
// three; the game ended (the room kept the agreed world at its end) and
// the other two pressed Back to lobby, so the room went back to setup and
// gave the vacant seat up. The player's late Rejoin with its token is
// seated in the lobby, in its own slot if free (else the lowest free one),
// keeps its token, and is sent the last game's world for its results; a
// full room says its place was taken; once the next game has started, or
// if it had left by choice, its token is refused as before.
func TestRejoinAfterTheRematchLobby(t *testing.T) {
	world := []byte("the world at the end of the game, agreed by both")
	for _, tc := range []struct {
		name      string
		left      bool // slot 2 left by choice (Leave) rather than crashed
		newcomers int  // players who join the lobby before it is back
		started   bool // the next game started before it is back
		wantSlot  int  // -1: refused
		wantWhy   wire.RefuseReason
		wantWorld bool
	}{
		{name: "its own seat", wantSlot: 2, wantWorld: true},
		{name: "its seat taken: another", newcomers: 1, wantSlot: 3},
		{name: "the room full", newcomers: 6, wantSlot: -1, wantWhy: wire.RefuseFull},
		{name: "the next game started", started: true, wantSlot: -1, wantWhy: wire.RefuseBadToken},
		{name: "it had left", left: true, wantSlot: -1, wantWhy: wire.RefuseBadToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			ws := b.startGame(3)
			for turn := uint32(0); turn < 4; turn++ {
				b.playIdle(turn, 3)
			}
			if tc.left {
				b.send(3, wire.Leave{Reason: wire.LeaveQuit})
			}
			b.r.Disconnected(b.now, 3) // slot 2's machine crashes (or it left): not there
			b.flush()
			b.send(1, wire.EndGame{})
			b.playIdle(4, 2)
			_, final := b.r.Ended()
			for _, c := range []room.ConnID{1, 2} {
				sendWorld(b, c, final, world)
			}
			// Both go back to the lobby for a rematch.
			b.ack(1)
			b.ack(2)
			b.send(1, wire.Ready{Ready: true})
			b.send(2, wire.Ready{Ready: true})
			if st, _ := b.r.State(); st != wire.StateSetup {
				t.Fatalf("state %d after both pressed Back to lobby, want setup", st)
			}
			for i := range tc.newcomers {
				b.join(room.ConnID(20+i), "new")
			}
			if tc.started {
				b.send(1, wire.StartGame{Game: b.r.Game()})
				if st, _ := b.r.State(); st != wire.StateRunning {
					t.Fatalf("the rematch did not start: state %d", st)
				}
			}
			b.peer(9).got = nil
			b.send(9, wire.Join{Name: "p", Token: ws[2].Token, PlayerID: [16]byte{3}})
			got := b.peer(9).got
			if tc.wantSlot < 0 {
				ref, ok := last[wire.Refuse](&peer{got: got})
				if !ok || ref.Reason != tc.wantWhy {
					t.Fatalf("the late rejoin got %+v (%v), want refused with reason %d", ref, ok, tc.wantWhy)
				}
				return
			}
			w, ok := last[wire.Welcome](&peer{got: got})
			if !ok || int(w.Slot) != tc.wantSlot || w.State != wire.StateSetup || w.Token != ws[2].Token {
				t.Fatalf("the late rejoin: %+v (%v), want slot %d in the lobby with its token", w, ok, tc.wantSlot)
			}
			ss, ok := last[wire.SetupState](b.peer(1))
			if !ok {
				t.Fatal("the others were not sent the roster")
			}
			seated := false
			for _, p := range ss.Players {
				seated = seated || int(p.Slot) == tc.wantSlot && p.Connected
			}
			if !seated {
				t.Errorf("the roster %+v does not seat it in slot %d", ss.Players, tc.wantSlot)
			}
			var asm wire.Assembly
			var data []byte
			for range 10 {
				for _, c := range chunksOf(b.peer(9)) {
					if d, _, _ := asm.Add(c); d != nil {
						data = d
					}
				}
				b.tick(100 * time.Millisecond)
			}
			if tc.wantWorld && !bytes.Equal(data, world) {
				t.Errorf("the returning player got %d bytes of the last game's world, want its %d", len(data), len(world))
			}
			if !tc.wantWorld && data != nil {
				t.Errorf("a player seated in another slot was sent the world of a game it did not play there")
			}
			// Ready, it can play the rematch with the others.
			b.send(9, wire.Ready{Ready: true})
			b.send(1, wire.StartGame{Game: b.r.Game()})
			if st, _ := b.r.State(); st != wire.StateRunning && tc.newcomers == 0 {
				t.Errorf("the rematch with the returning player did not start: state %d", st)
			}
		})
	}
}

// TestEndUndelivered: a finished game whose last master turns a connected
// player has not acknowledged is undelivered (a host that stops then
// waits a moment before its goodbye: host.Host's shutdown, so that a
// successor whose player ended the game and closed at once does not send
// the others away a few turns before their end); once every player has
// them and sent its world at the end (it ran the last turn), it is
// delivered. A running game is never "undelivered".
func TestEndUndelivered(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	if b.r.EndUndelivered() {
		t.Fatal("undelivered while the game runs")
	}
	b.r.EndGame()
	b.playIdle(0, 2)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatalf("state %d, want finished", st)
	}
	b.ack(1)
	if !b.r.EndUndelivered() {
		t.Fatal("delivered while the guest lacks the last turns")
	}
	b.ack(2)
	turn, asked := requestOf(b.peer(2))
	if !asked {
		t.Fatal("the room did not ask for the world at the end")
	}
	if !b.r.EndUndelivered() {
		t.Fatal("delivered before the players sent their worlds at the end (ran the last turn)")
	}
	world := bytes.Repeat([]byte("the world at the end "), 10)
	sendWorld(b, 1, turn, world)
	if !b.r.EndUndelivered() {
		t.Fatal("delivered before the guest sent its world at the end")
	}
	sendWorld(b, 2, turn, world)
	if b.r.EndUndelivered() {
		t.Fatal("undelivered after every player ran the game to its end")
	}
}
