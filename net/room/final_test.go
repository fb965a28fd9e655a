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
// crashed) when the game ends at turn 3: the other two's worlds ended
// there (game over, their hashes reported), or the host ended it (no
// hashes reported after the end). The room asks both for their world at
// the end of turn 3 and keeps one the players agree on (a strict majority
// of the live players' worlds have its digest, and it matches what its
// sender reported of that turn), and sends it to slot 2's player when it
// comes back with its token while the results show, so it can show the
// same results. A world the others do not share, or that does not match
// its sender's report, is refused and counted; with no agreement, nothing
// is sent; a newcomer gets nothing.
func TestLateRejoinGetsTheFinalWorld(t *testing.T) {
	world := bytes.Repeat([]byte("the world at the end of turn 3 "), 90) // several chunks
	other := bytes.Repeat([]byte("a world the players did not end on"), 90)
	tests := []struct {
		name     string
		byHost   bool     // the host ended the game (else its world ended: game over)
		worlds   [][]byte // what conns 1 and 2 send, in that order
		refused  uint64   // worlds refused, counted
		wantSent bool
	}{
		{"game over, the agreed world", false, [][]byte{world, world}, 0, true},
		{"game over, a world not agreed first", false, [][]byte{other, world}, 1, true},
		{"ended by the host, both agree", true, [][]byte{world, world}, 0, true},
		{"ended by the host, they differ", true, [][]byte{world, other}, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			ws := b.startGame(3)
			for turn := uint32(0); turn < 4; turn++ {
				b.playIdle(turn, 3)
			}
			b.r.Disconnected(b.now, 3) // slot 2's machine crashes: held vacant
			b.flush()
			if tc.byHost {
				b.send(1, wire.EndGame{})
				b.playIdle(4, 2) // the turn that carries the end
			} else {
				b.playIdle(4, 2)
				h := uint32(game.Sum64(world))
				for _, c := range []room.ConnID{1, 2} {
					b.send(c, wire.ClientPacket{MasterAck: 5, HasHash: true, HashTurn: 3, HashLow: h, Ended: true})
				}
			}
			st, _ := b.r.State()
			_, final := b.r.Ended()
			if st != wire.StateFinished {
				t.Fatal("the game did not finish")
			}
			for _, c := range []room.ConnID{1, 2} {
				if turn, ok := requestOf(b.peer(c)); !ok || turn != final {
					t.Fatalf("conn %d: asked %v for turn %d's world, want the final turn %d", c, ok, turn, final)
				}
			}
			dropped := b.r.Stats().Dropped[room.DropSnapshot]
			b.send(1, wire.SnapshotChunk{Turn: final + 1, Hash: game.Sum64(world[:10]), Total: 1, Data: world[:10]}) // not the final turn
			if got := b.r.Stats().Dropped[room.DropSnapshot]; got != dropped+1 {
				t.Errorf("a world of another turn: dropped %d, want 1", got-dropped)
			}
			for i, w := range tc.worlds {
				sendWorld(b, room.ConnID(i+1), final, w)
			}
			if got := b.r.Stats().Dropped[room.DropSnapshot] - dropped - 1; got != tc.refused {
				t.Errorf("worlds refused: %d, want %d", got, tc.refused)
			}
			// A newcomer joins the rematch's lobby: no world for it.
			b.join(8, "new")
			if cs := chunksOf(b.peer(8)); len(cs) != 0 {
				t.Errorf("a newcomer was sent %d chunks of the ended game's world", len(cs))
			}
			// Slot 2's player is back with its token.
			b.send(9, wire.Join{Token: ws[2].Token})
			w, ok := last[wire.Welcome](&peer{got: b.peer(9).got})
			if !ok || w.Slot != 2 || w.State != wire.StateFinished {
				t.Fatalf("the late rejoin: %+v, want slot 2 back in the finished room", w)
			}
			n := 0 // sendings
			var data []byte
			for i := 0; i < 20; i++ {
				var asm wire.Assembly
				cs := chunksOf(b.peer(9))
				if len(cs) > 0 {
					n++
				}
				for _, c := range cs {
					if c.Turn != final {
						t.Fatalf("a chunk of turn %d, want the final turn %d", c.Turn, final)
					}
					if d, _, _ := asm.Add(c); d != nil {
						data = d
					}
				}
				b.tick(100 * time.Millisecond)
			}
			if !tc.wantSent {
				if n != 0 {
					t.Errorf("a world no majority agreed on was sent %d times", n)
				}
				return
			}
			if !bytes.Equal(data, world) {
				t.Fatalf("the late rejoiner got %d bytes, want the agreed world's %d", len(data), len(world))
			}
			if n < 2 || n > 3 {
				t.Errorf("the final world was sent %d times, want 2 or 3 (nothing acknowledges it)", n)
			}
		})
	}
}

// TestForgedFinalWorldIsRefused: a late rejoiner's world is the kept final
// world, and a player may try to plant one: here the first to answer sends
// a world whose first ship scores 999,999, one block of it solved so that
// it hashes (game.Sum64) like the others' final world, which is also the
// hash it reported for that turn. The room keeps the world the others'
// digests agree on, counts the forgery, and the rejoiner gets the honest
// world.
func TestForgedFinalWorldIsRefused(t *testing.T) {
	honest, forged := honestAndForged(t, 21)
	b := newBench(t, nil)
	ws := b.startGame(4)
	for turn := uint32(0); turn < 4; turn++ {
		b.playIdle(turn, 4)
	}
	b.r.Disconnected(b.now, 4) // slot 3's machine crashes: held vacant
	b.flush()
	b.playIdle(4, 3)
	h := uint32(game.Sum64(honest))
	for _, c := range []room.ConnID{1, 2, 3} {
		b.send(c, wire.ClientPacket{MasterAck: 5, HasHash: true, HashTurn: 3, HashLow: h, Ended: true})
	}
	_, final := b.r.Ended()
	sendWorld(b, 1, final, forged)
	sendWorld(b, 2, final, honest)
	sendWorld(b, 3, final, honest)
	if got := b.r.Stats().Lies; got != 1 {
		t.Errorf("lies counted %d, want 1 (the forgery)", got)
	}
	b.send(9, wire.Join{Token: ws[3].Token})
	var data []byte
	for i := 0; i < 5 && data == nil; i++ {
		var asm wire.Assembly
		for _, c := range chunksOf(b.peer(9)) {
			if d, _, _ := asm.Add(c); d != nil {
				data = d
			}
		}
		b.tick(100 * time.Millisecond)
	}
	if !bytes.Equal(data, honest) {
		t.Fatalf("the late rejoiner got %d bytes (forged: %v), want the honest world", len(data), bytes.Equal(data, forged))
	}
}
