package room_test

import (
	"bytes"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// chunksOf returns the snapshot chunks p received, and clears its inbox.
func chunksOf(p *peer) []wire.SnapshotChunk {
	var out []wire.SnapshotChunk
	for _, m := range p.got {
		if c, ok := m.(wire.SnapshotChunk); ok {
			out = append(out, c)
		}
	}
	p.got = p.got[:0]
	return out
}

// requestOf returns the turn of the newest SnapshotRequest p received.
func requestOf(p *peer) (uint32, bool) {
	r, ok := last[wire.SnapshotRequest](p)
	return r.Turn, ok
}

// sendWorld sends data, a world at the end of turn, from conn in chunks.
func sendWorld(b *bench, conn room.ConnID, turn uint32, data []byte) {
	b.t.Helper()
	h := game.Sum64(data)
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	for i := 0; i < total; i++ {
		end := min((i+1)*wire.MaxChunk, len(data))
		b.send(conn, wire.SnapshotChunk{Turn: turn, Hash: h, Total: uint8(total), Index: uint8(i), Data: data[i*wire.MaxChunk : end]})
	}
}

// TestLateRejoinGetsTheFinalWorld: slot 2's player is away (its machine
// crashed) when the other two's worlds end at turn 3. The room asks a
// player for its world at the end of turn 3, checks it against the hashes
// the players reported for that turn, and sends it to slot 2's player when
// it comes back with its token while the results show, so it can show the
// same results. A world that is not the agreed one is refused and another
// player asked; a newcomer, or chunks from one not asked, get nothing.
func TestLateRejoinGetsTheFinalWorld(t *testing.T) {
	world := bytes.Repeat([]byte("the world at the end of turn 3 "), 90) // several chunks
	other := bytes.Repeat([]byte("a world the players did not end on"), 90)
	tests := []struct {
		name  string
		first []byte // what the first player asked answers
	}{
		{"the agreed world", world},
		{"a world not agreed: refused, the other player asked", other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			ws := b.startGame(3)
			for turn := uint32(0); turn < 5; turn++ {
				b.playIdle(turn, 3)
			}
			b.r.Disconnected(b.now, 3) // slot 2's machine crashes: held vacant
			b.flush()
			h := uint32(game.Sum64(world))
			for _, c := range []room.ConnID{1, 2} {
				b.send(c, wire.ClientPacket{MasterAck: 5, HasHash: true, HashTurn: 3, HashLow: h, Ended: true})
			}
			if st, _ := b.r.State(); st != wire.StateFinished {
				t.Fatal("the game did not finish on the live players' agreeing reports")
			}
			asked := room.ConnID(0)
			for _, c := range []room.ConnID{1, 2} {
				if turn, ok := requestOf(b.peer(c)); ok {
					if turn != 3 {
						t.Fatalf("conn %d asked for turn %d's world, want the final turn 3", c, turn)
					}
					asked = c
				}
			}
			if asked == 0 {
				t.Fatal("no player was asked for the final world")
			}
			dropped := b.r.Stats().Dropped[room.DropSnapshot]
			sendWorld(b, 3-asked, 3, world) // from the player not asked
			if got := b.r.Stats().Dropped[room.DropSnapshot]; got == dropped {
				t.Error("chunks from a player not asked were not dropped")
			}
			sendWorld(b, asked, 3, tc.first)
			if !bytes.Equal(tc.first, world) {
				if got := b.r.Stats().Dropped[room.DropSnapshot]; got <= dropped+1 {
					t.Error("a world not agreed was not refused and counted")
				}
				b.tick(10 * time.Millisecond)
				next := 3 - asked
				if turn, ok := requestOf(b.peer(next)); !ok || turn != 3 {
					t.Fatalf("after a refused world, conn %d was not asked (ok %v turn %d)", next, ok, turn)
				}
				sendWorld(b, next, 3, world)
			}
			// A newcomer joins the rematch's lobby: no world for it.
			b.join(8, "new")
			if cs := chunksOf(b.peer(8)); len(cs) != 0 {
				t.Errorf("a newcomer was sent %d chunks of the ended game's world", len(cs))
			}
			// Slot 2's player is back with its token.
			b.send(9, wire.Join{Token: ws[2].Token})
			got := b.peer(9).got
			w, ok := last[wire.Welcome](&peer{got: got})
			if !ok || w.Slot != 2 || w.State != wire.StateFinished {
				t.Fatalf("the late rejoin: %+v, want slot 2 back in the finished room", w)
			}
			var asm wire.Assembly
			var data []byte
			for _, c := range chunksOf(b.peer(9)) {
				if c.Turn != 3 {
					t.Fatalf("a chunk of turn %d, want the final turn 3", c.Turn)
				}
				if d, _, _ := asm.Add(c); d != nil {
					data = d
				}
			}
			if !bytes.Equal(data, world) {
				t.Fatalf("the late rejoiner got %d bytes, want the agreed world's %d", len(data), len(world))
			}
			// It is sent again (nothing acknowledges it), a bounded number of times.
			n := 0
			for i := 0; i < 20; i++ {
				b.tick(100 * time.Millisecond)
				if len(chunksOf(b.peer(9))) > 0 {
					n++
				}
			}
			if n == 0 || n > 3 {
				t.Errorf("the final world was sent again %d times, want 1 to 3", n)
			}
		})
	}
}
