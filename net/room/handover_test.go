package room_test

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestResumedRoomTakesInOnlyWhoseGameItCompiled: a successor's room
// compiles its own turns from the turn it resumed at. A player coming back
// whose game stands at or before that turn goes on in place (its turns
// are the old room's, which the successor executed too); one whose game
// ran past it executed the old room's versions of turns this room compiled
// anew, and must start again from this room's snapshot, however late it
// comes (in place it would desync).
func TestResumedRoomTakesInOnlyWhoseGameItCompiled(t *testing.T) {
	tokens := [5][16]byte{{1}, {2}, {3}, {4}, {5}}
	setup := game.Setup{Seed: 5, Players: 0b11111, Mode: game.Coop, Lives: 3, StartWave: 1}
	hd := room.Handover{Game: 1, Setup: setup, Present: 0b11111, Expected: 0b11001, Next: 100, K: 2, Delay: 1,
		Names: [game.MaxPlayers]string{"Ada", "Bo", "Cy", "Di", "Ed"}}
	for i, tok := range tokens {
		hd.Tokens[i] = room.TokenHash(tok)
	}
	for turn := uint32(90); turn < 100; turn++ {
		hd.History = append(hd.History, wire.MasterTurn{Turn: turn, Count: 2, Players: 0b111})
	}
	cfg := room.LAN()
	cfg.Random = rand.NewChaCha8([32]byte{1})
	cfg.FixedTiming = true
	b := &bench{t: t, r: room.Resume(cfg, hd), peers: map[room.ConnID]*peer{}}
	b.tick(time.Millisecond)

	resume := func(conn room.ConnID, slot int, at uint32) wire.Welcome {
		t.Helper()
		b.send(conn, wire.Join{Token: tokens[slot], Resuming: true, Resume: at})
		w, ok := last[wire.Welcome](b.peer(conn))
		if !ok {
			t.Fatalf("slot %d resuming at %d: no Welcome", slot, at)
		}
		return w
	}
	if w := resume(1, 0, 100); !w.Resumed {
		t.Fatal("the successor's own player was not taken in place at the room's first turn")
	}
	for conn, slot := range map[room.ConnID]int{4: 3, 5: 4} {
		if w := resume(conn, slot, 100); !w.Resumed {
			t.Fatalf("slot %d was not taken in place at the room's first turn", slot)
		}
	}
	// The room plays on with three of five, a majority; the others are held.
	b.tick(room.HandoverWait + time.Millisecond)
	for turn := uint32(100); turn < 120; turn++ {
		for _, conn := range []room.ConnID{1, 4, 5} {
			b.play(conn, turn, 0)
		}
		b.tick(34 * time.Millisecond)
	}
	if b.r.Turn() < 110 {
		t.Fatalf("the resumed room compiled only to turn %d", b.r.Turn())
	}
	if w := resume(2, 1, 98); !w.Resumed {
		t.Error("a player behind the room's first turn, within its history, was not taken in place")
	}
	if w := resume(3, 2, 105); w.Resumed {
		t.Error("a player whose game ran past the room's first turn was taken in place: it holds another room's turns 100-104")
	}
}

// TestSuccessorsFollowTheRoster: a player whose connection is lost leaves
// the successor list in the very flush that tells the others of the
// roster, not at some later Tick; a Standby is listed at once too.
func TestSuccessorsFollowTheRoster(t *testing.T) {
	b := newBench(t, func(c *room.Config) {
		c.AddrOf = func(c room.ConnID) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)}) }
	})
	b.startGame(3)
	b.tick(10 * time.Millisecond)
	slots := func(c room.ConnID) []uint8 {
		t.Helper()
		sc, ok := last[wire.Successors](b.peer(c))
		if !ok {
			t.Fatalf("conn %d was sent no successor list", c)
		}
		var out []uint8
		for _, s := range sc.List {
			out = append(out, s.Slot)
		}
		return out
	}
	for c := room.ConnID(1); c <= 3; c++ {
		b.send(c, wire.Standby{Port: 7000 + uint16(c), Reach: 0b111})
	}
	if got := slots(1); !slices.Equal(got, []uint8{0, 1, 2}) {
		t.Fatalf("successors after three Standbys = %v, want [0 1 2]", got)
	}
	b.r.Disconnected(b.now, 2)
	b.flush()
	if got := slots(3); !slices.Equal(got, []uint8{0, 2}) {
		t.Fatalf("successors right after conn 2 was lost = %v, want [0 2]", got)
	}
}
