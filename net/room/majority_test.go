package room_test

import (
	"net/netip"
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestMajorityRule: a game advances only where a strict majority of its
// members are together (docs/ARCHITECTURE.md, "When the host goes away").
// Members are the players not gone by choice and not yet dropped at the
// end of their countdown; a side without a majority holds, its status
// counting the absent down, and at the end of the countdown drops them and
// plays on, every player told by the master turn that drops them. On
// virtual time, conn i is slot i-1; conn 1 is the room's own player (the
// old host, in the cases where its players are cut off).
func TestMajorityRule(t *testing.T) {
	const countdown = 2 * time.Second
	cases := []struct {
		name    string
		players int
		left    []room.ConnID // leave by choice first
		lost    []room.ConnID // then lose their connection
		plays   bool          // the rest play on before the countdown ends
	}{
		{name: "majority: two of three play on", players: 3, lost: []room.ConnID{3}, plays: true},
		{name: "majority: three of five play on", players: 5, lost: []room.ConnID{4, 5}, plays: true},
		{name: "minority: one of three holds", players: 3, lost: []room.ConnID{2, 3}},
		{name: "tie: two of four hold", players: 4, lost: []room.ConnID{3, 4}},
		{name: "two players: the one left waits for the other's countdown", players: 2, lost: []room.ConnID{2}},
		{name: "two players: a host that crashed is waited for", players: 2, lost: []room.ConnID{1}},
		{name: "old host cut off: its room holds without its players", players: 3, lost: []room.ConnID{2, 3}},
		{name: "gone by choice is no member: two of three left play on", players: 4, left: []room.ConnID{4}, lost: []room.ConnID{3}, plays: true},
		{name: "gone by choice is no member: one of two left holds", players: 3, left: []room.ConnID{3}, lost: []room.ConnID{2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, func(c *room.Config) { c.VacancyTimeout = countdown })
			b.startGame(tc.players)
			b.playIdle(0, tc.players)
			gone := map[room.ConnID]bool{}
			for _, c := range tc.left {
				b.send(c, wire.Leave{Reason: wire.LeaveQuit})
				gone[c] = true
			}
			for _, c := range tc.lost {
				b.r.Disconnected(b.now, c)
				b.flush()
				gone[c] = true
			}
			var here []room.ConnID
			for c := room.ConnID(1); int(c) <= tc.players; c++ {
				if !gone[c] {
					here = append(here, c)
				}
			}
			play := func(from, to uint32) {
				for turn := from; turn < to; turn++ {
					for _, c := range here {
						b.play(c, turn, 0)
						b.ack(c)
					}
					b.tick(50 * time.Millisecond)
				}
			}
			start := b.r.Turn()
			play(start, start+10) // half a second, well within the countdown
			advanced := b.r.Turn() > start+5
			if advanced != tc.plays {
				t.Fatalf("from turn %d the room compiled to turn %d with %d of %d together: advanced %v, want %v",
					start, b.r.Turn(), len(here), tc.players-len(tc.left), advanced, tc.plays)
			}
			if got := b.r.Majority(); got != tc.plays {
				t.Errorf("Majority() = %v, want %v", got, tc.plays)
			}
			st := b.r.Status()
			var lostMask uint8
			for _, c := range tc.lost {
				lostMask |= 1 << (c - 1)
			}
			if st.Vacant != lostMask || st.VacancyMs == 0 {
				t.Errorf("status vacant %08b with %d ms left, want %08b counting down", st.Vacant, st.VacancyMs, lostMask)
			}
			if tc.plays {
				return
			}
			// The countdown ends: the absent are dropped, and whoever is
			// left plays on, told so.
			for _, c := range here {
				b.peer(c).got = nil
			}
			held := b.r.Turn()
			b.tick(countdown)
			play(held, held+10)
			if b.r.Turn() <= held+5 {
				t.Fatalf("after the countdown the room compiled only to turn %d from %d", b.r.Turn(), held)
			}
			var dropped uint8
			for _, m := range b.peer(here[0]).got {
				if mp, ok := m.(wire.MasterPacket); ok {
					for _, mt := range mp.Turns {
						for _, e := range mt.Events {
							if e.Kind == wire.EventDrop {
								dropped |= 1 << e.Slot
							}
						}
					}
				}
			}
			if dropped != lostMask {
				t.Errorf("the master turns dropped slots %08b, want %08b", dropped, lostMask)
			}
		})
	}
}

// TestMajorityComesBack: a side that held without a majority plays on at
// once when enough of its players come back within the countdown.
func TestMajorityComesBack(t *testing.T) {
	b := newBench(t, nil)
	ws := b.startGame(3)
	b.playIdle(0, 3)
	b.r.Disconnected(b.now, 2)
	b.r.Disconnected(b.now, 3)
	b.flush()
	b.play(1, 1, 0)
	b.tick(100 * time.Millisecond)
	if b.r.Turn() != 1 {
		t.Fatalf("one of three compiled to turn %d, want it held at 1", b.r.Turn())
	}
	b.send(4, wire.Join{Token: ws[1].Token})
	if w, ok := last[wire.Welcome](b.peer(4)); !ok || w.Slot != 1 {
		t.Fatalf("slot 1's token: %+v, want slot 1 back", w)
	}
	b.play(4, 1, 0) // caught up at the held turn: live again
	b.play(1, 2, 0)
	b.play(4, 2, 0)
	if b.r.Turn() < 2 {
		t.Fatalf("with two of three back the room compiled only to turn %d", b.r.Turn())
	}
}

// TestMajorityCatchingUp: the majority comes back to a room that holds
// the game (a successor's, whose players resumed behind its turn) by
// rejoining from a snapshot. A player catching up counts as together: the
// snapshot it waits for is a world at a turn ahead, which the room must
// compile on to get; holding the game until it caught up would hold it
// for ever (the lab's players stuck in Starting, the successor stalled).
func TestMajorityCatchingUp(t *testing.T) {
	b := newBench(t, nil)
	ws := b.startGame(3)
	b.playIdle(0, 3)
	b.r.Disconnected(b.now, 2)
	b.r.Disconnected(b.now, 3)
	b.flush()
	b.play(1, 1, 0)
	b.tick(100 * time.Millisecond)
	if b.r.Turn() != 1 {
		t.Fatalf("one of three compiled to turn %d, want it held at 1", b.r.Turn())
	}
	b.send(4, wire.Join{Token: ws[1].Token}) // back, with no world: catching up
	if !b.r.Majority() {
		t.Fatal("no majority with a player back and catching up: the snapshot it waits for would never come")
	}
	for turn := uint32(1); turn < 12; turn++ {
		b.play(1, turn, 0)
		b.ack(1)
		b.tick(50 * time.Millisecond)
	}
	if b.r.Turn() < 5 {
		t.Fatalf("with slot 1 catching up the room compiled only to turn %d", b.r.Turn())
	}
	if _, ok := requestOf(b.peer(1)); !ok {
		t.Fatal("nobody was asked for the world slot 1 catches up from")
	}
	b.r.Disconnected(b.now, 4) // gone again before it caught up: one of three holds
	b.flush()
	if b.r.Majority() {
		t.Fatal("a majority with the player catching up gone again")
	}
}

// TestHandOverLeavesTheHostsOwnPlayerOut: a host that goes away by choice
// (its window closes: HandOver) takes the player on its machine with it:
// that player is no member of the game the others carry on (its token is
// not in the list they take), so a guest left alone plays on at once
// rather than wait for a countdown.
func TestHandOverLeavesTheHostsOwnPlayerOut(t *testing.T) {
	b := newBench(t, func(c *room.Config) {
		c.AddrOf = func(c room.ConnID) netip.Addr {
			if c == 1 {
				return netip.Addr{} // the Host button's own player, over a pipe
			}
			return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)})
		}
	})
	b.startGame(2)
	b.playIdle(0, 2)
	b.send(2, wire.Standby{Port: 7002})
	if !b.r.HandOver(b.now, "the host left") {
		t.Fatal("HandOver refused a running game with a successor")
	}
	b.flush()
	sc, ok := last[wire.Successors](b.peer(2))
	if !ok {
		t.Fatal("the guest was sent no successor list")
	}
	if sc.Tokens[0] != ([16]byte{}) || sc.Tokens[1] == ([16]byte{}) {
		t.Errorf("tokens handed over: slot 0 %x, slot 1 %x; want the host's own player's left out, the guest's in", sc.Tokens[0], sc.Tokens[1])
	}
}

// TestHostEndsWithoutMajority: a side without a majority does not advance,
// but its host may still end the game there: the end is one turn that
// carries EventEnd, not play.
func TestHostEndsWithoutMajority(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.playIdle(0, 2)
	b.r.Disconnected(b.now, 2)
	b.flush()
	b.play(1, 1, 0)
	b.send(1, wire.EndGame{})
	b.play(1, 2, 0)
	if reason, final := b.r.Ended(); reason != wire.EndByHost || final != 1 {
		t.Fatalf("Ended() = %d at turn %d, want the host's end at turn 1", reason, final)
	}
}
