package room_test

import (
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestStalledPlayerKeepsItsPlace is the room's rule for a player that
// stalls (stall.go) on virtual time: four players, conn 4 (slot 3) a tab
// starved of its thread. Players 1 to 3 play and acknowledge every 50 ms;
// player 4 goes silent at 1 s for the case's stall, then, as the case
// says, comes back acknowledging (and playing from the game's turn), comes
// back sending frames that acknowledge nothing, or never comes back.
//
// On the old rule (lost at SilenceTimeout) the returning player's frames
// were refused as from no member and it had to rejoin on a new
// connection; here it keeps its connection and its place.
func TestStalledPlayerKeepsItsPlace(t *testing.T) {
	const silence, vacancy = 3 * time.Second, 30 * time.Second
	tests := []struct {
		name  string
		stall time.Duration // silent for this long from 1 s
		back  string        // "acks": acknowledges and plays again; "deaf": frames acknowledging only what it had (deaf, or lacking turns the room no longer keeps); "": nothing more
		run   time.Duration // how long the game runs in all

		waits       time.Duration // the others wait for it this long (a stall shorter than the silence)
		wantHeld    bool          // its slot was held vacant during the stall
		wantMember  bool          // still a member of the room at the end
		wantPlaying bool          // its slot playing again at the end (not vacant)
		wantLeft    bool          // told LeaveTimeout
		leftBy      time.Duration // ... by this time at the latest
	}{
		{name: "a stall shorter than the silence", stall: 2 * time.Second, back: "acks", run: 6 * time.Second,
			waits: 2 * time.Second, wantMember: true, wantPlaying: true},
		{name: "a 4 s stall: held, then back in its place", stall: 4 * time.Second, back: "acks", run: 9 * time.Second,
			wantHeld: true, wantMember: true, wantPlaying: true},
		{name: "a 20 s stall: held, then back in its place", stall: 20 * time.Second, back: "acks", run: 25 * time.Second,
			wantHeld: true, wantMember: true, wantPlaying: true},
		{name: "a 27 s stall, past the turns the room keeps (512 at 20 a second): lost when back", stall: 27 * time.Second, back: "deaf", run: 29 * time.Second,
			wantHeld: true, wantLeft: true, leftBy: 1*time.Second + 27*time.Second + 100*time.Millisecond},
		{name: "back but deaf: lost a silence after its first frame", stall: 4 * time.Second, back: "deaf", run: 12 * time.Second,
			wantHeld: true, wantLeft: true, leftBy: 1*time.Second + 4*time.Second + silence + 100*time.Millisecond},
		{name: "never back: lost at the end of the vacancy", stall: time.Hour, run: 40 * time.Second,
			wantHeld: true, wantLeft: true, leftBy: 1*time.Second + silence + vacancy + 100*time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, func(c *room.Config) { c.SilenceTimeout, c.VacancyTimeout = silence, vacancy })
			b.startGame(4)
			held, left, leftAt := false, false, time.Duration(0)
			start := b.now
			turn := uint32(0) // the next turn players 1 to 3 send
			mine := uint32(0) // the next turn player 4 sends
			ackd := uint32(0) // what player 4 acknowledged
			for b.now-start < tc.run {
				at := b.now - start
				for c := room.ConnID(1); c <= 3; c++ {
					b.play(c, turn, 0)
					b.ack(c)
				}
				turn++
				quiet := at >= time.Second && at < time.Second+tc.stall
				switch {
				case !quiet && (at < time.Second || tc.back == "acks"):
					// It catches up at once (the bench delivers every
					// master turn): it acknowledges them all, and sends
					// from the game's turn on.
					if mine < b.r.Turn() {
						mine = b.r.Turn()
					}
					ackd = b.r.Turn()
					b.send(4, wire.ClientPacket{MasterAck: ackd})
					b.play(4, mine, 0)
					mine++
				case !quiet && tc.back == "deaf":
					b.send(4, wire.ClientPacket{MasterAck: ackd})
				}
				b.tick(50 * time.Millisecond)
				if b.r.Status().Vacant&0b1000 != 0 {
					held = true
				}
				for _, m := range b.peer(4).got {
					if l, ok := m.(wire.Leave); ok && l.Reason == wire.LeaveTimeout && !left {
						left, leftAt = true, b.now-start
					}
				}
				b.peer(4).got = b.peer(4).got[:0]
			}
			if st, _ := b.r.State(); st != wire.StateRunning {
				t.Fatalf("the game is not running at the end (state %d)", st)
			}
			if lost := uint32(tc.waits / (50 * time.Millisecond)); b.r.Turn()+lost+2 < turn {
				t.Errorf("the game stood at turn %d of %d: the three others did not play on", b.r.Turn(), turn)
			}
			if held != tc.wantHeld {
				t.Errorf("slot held during the stall: %v, want %v", held, tc.wantHeld)
			}
			if got := b.r.HasConn(4); got != tc.wantMember {
				t.Errorf("still a member: %v, want %v", got, tc.wantMember)
			}
			if got := b.r.Status().Vacant&0b1000 == 0; got != tc.wantPlaying && tc.wantPlaying {
				t.Errorf("playing again at the end: %v, want %v (status %+v)", got, tc.wantPlaying, b.r.Status())
			}
			if left != tc.wantLeft {
				t.Errorf("told LeaveTimeout: %v, want %v", left, tc.wantLeft)
			}
			if left && tc.leftBy > 0 && leftAt > tc.leftBy {
				t.Errorf("told LeaveTimeout at %v, want by %v", leftAt, tc.leftBy)
			}
			st := b.r.Stats()
			if tc.wantHeld && st.Stalls == 0 {
				t.Errorf("stats: no stall counted")
			}
			if tc.wantHeld && tc.wantPlaying && st.Resumes == 0 {
				t.Errorf("stats: no resume counted")
			}
		})
	}
}

// TestStalledAgainWhileCatchingUp: a player back from a stall that stalls
// again before it is waited for again has its slot held anew (its
// countdown from then), and the next acknowledgement brings it back.
func TestStalledAgainWhileCatchingUp(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.SilenceTimeout = time.Second })
	b.startGame(3)
	turn := uint32(0)
	others := func(d time.Duration) {
		for end := b.now + d; b.now < end; turn++ {
			b.play(1, turn, 0)
			b.ack(1)
			b.play(2, turn, 0)
			b.ack(2)
			b.tick(50 * time.Millisecond)
		}
	}
	others(1500 * time.Millisecond) // player 3 silent from the start: stalls
	if b.r.Status().Vacant != 0b100 || !b.r.HasConn(3) {
		t.Fatalf("vacant %b, member %v: want slot 2 held and its connection kept", b.r.Status().Vacant, b.r.HasConn(3))
	}
	b.ack(3) // back, acknowledging, but no turn sent yet: catching up
	others(1500 * time.Millisecond)
	if b.r.Status().Vacant != 0b100 || !b.r.HasConn(3) {
		t.Fatalf("vacant %b, member %v after a second stall: want slot 2 held again, its connection kept", b.r.Status().Vacant, b.r.HasConn(3))
	}
	b.ack(3)
	for i := 0; i < 10 && b.r.Status().Vacant != 0; i++ {
		b.play(3, b.r.Turn(), 0)
		others(50 * time.Millisecond)
	}
	if b.r.Status().Vacant != 0 {
		t.Fatalf("vacant %b: the player back from its second stall is not waited for again", b.r.Status().Vacant)
	}
	if st := b.r.Stats(); st.Stalls != 2 || st.Resumes != 2 {
		t.Errorf("stats: %d stalls, %d resumes, want 2 and 2", st.Stalls, st.Resumes)
	}
}

// TestStalledInAPausedGame: a player that stalls while the host has paused
// the game has nothing new to acknowledge when it comes back; its first
// frame brings it back into its place (it is not taken for deaf).
func TestStalledInAPausedGame(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.SilenceTimeout = time.Second })
	b.startGame(3)
	for turn := uint32(0); turn < 3; turn++ {
		b.playIdle(turn, 3)
		for c := room.ConnID(1); c <= 3; c++ {
			b.ack(c)
		}
	}
	b.send(1, wire.Pause{Paused: true})
	b.playIdle(3, 3) // the turn that carries the pause
	for c := room.ConnID(1); c <= 3; c++ {
		b.ack(c)
	}
	if _, child := b.r.State(); child != wire.ChildPaused {
		t.Fatalf("child %d, want paused", child)
	}
	for range 30 { // 1.5 s: player 3 silent, the others' frames keep them
		b.ack(1)
		b.ack(2)
		b.tick(50 * time.Millisecond)
	}
	if b.r.Status().Vacant != 0b100 || !b.r.HasConn(3) {
		t.Fatalf("vacant %b, member %v: want slot 2 held and its connection kept", b.r.Status().Vacant, b.r.HasConn(3))
	}
	for range 100 { // 5 s more of its frames, each acknowledging all there is
		b.ack(1)
		b.ack(2)
		b.ack(3)
		b.tick(50 * time.Millisecond)
	}
	if !b.r.HasConn(3) {
		t.Fatal("the player back in a paused game was lost as deaf")
	}
	if st := b.r.Stats(); st.Resumes != 1 {
		t.Errorf("%d resumes, want 1", st.Resumes)
	}
}
