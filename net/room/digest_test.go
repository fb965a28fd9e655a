package room_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// claim is what a hand-driven player says of its world: the world it
// serves when asked, and the digest it reports (nil: the served world's).
type claim struct {
	serves  []byte
	reports []byte
}

// answer has conn answer the room's requests in its inbox of the turns
// the room compiled, as a player does once it completed the turns asked:
// its world for a SnapshotRequest and its digest for a DigestRequest.
// Those requests are taken out of the inbox (those of later turns stay);
// it returns the turns of the worlds it sent.
func (b *bench) answer(conn room.ConnID, c claim) []uint32 {
	b.t.Helper()
	p := b.peer(conn)
	var worlds []uint32
	var digests []uint32
	kept := p.got[:0]
	done := b.r.Turn()
	for _, m := range p.got {
		switch q := m.(type) {
		case wire.SnapshotRequest:
			if q.Turn >= done {
				kept = append(kept, m)
				continue
			}
			worlds = append(worlds, q.Turn)
		case wire.DigestRequest:
			if q.Turn >= done {
				kept = append(kept, m)
				continue
			}
			digests = append(digests, q.Turn)
		default:
			kept = append(kept, m)
		}
	}
	p.got = kept
	rep := c.reports
	if rep == nil {
		rep = c.serves
	}
	for _, turn := range digests {
		b.send(conn, wire.Digest{Turn: turn, Hash: game.Sum64(rep), Sum: wire.WorldSum(rep)})
	}
	for _, turn := range worlds {
		b.sendWorld(conn, turn, c.serves, game.Sum64(c.serves))
	}
	return worlds
}

// advance plays idle turns from the room's next turn up to and including
// to, players 1..n each reporting the hash of each turn (odd: another
// hash for some), as clients do: a turn's hash with the next turn's input.
func (b *bench) advance(to uint32, n int, low uint32, odd map[room.ConnID]uint32) {
	b.t.Helper()
	for t := b.r.Turn(); t <= to; t++ {
		b.playIdle(t, n)
		b.hashes(t, n, low, odd)
	}
}

// asked reports the turn of the newest request of type T in p's inbox,
// leaving the inbox as it is.
func asked[T interface {
	wire.SnapshotRequest | wire.DigestRequest
}](p *peer) (uint32, bool) {
	turn, ok := uint32(0), false
	for _, m := range p.got {
		switch q := m.(type) {
		case wire.SnapshotRequest:
			if _, is := any(*new(T)).(wire.SnapshotRequest); is {
				turn, ok = q.Turn, true
			}
		case wire.DigestRequest:
			if _, is := any(*new(T)).(wire.DigestRequest); is {
				turn, ok = q.Turn, true
			}
		}
	}
	return turn, ok
}

// sentAway reports whether p was told to leave for straying or lying.
func sentAway(p *peer) bool {
	return find(p, func(m wire.Leave) bool { return m.Reason == wire.LeaveStrayed && m.Text != "" })
}

// TestForgedRepairWorldIsRefused: of four players one strays; the room
// asks the first of the three others for a world to repair it from, and
// that player is hostile: it serves a world whose first ship scores
// 999,999, one block of it solved so that it hashes (game.Sum64) exactly
// like the honest world, and reports the honest hash for the turn. The
// room refuses it by its digest, sends the forger away, repairs the
// strayed player once from an honest player's world, and the strayed
// player stays. Before the digest the forgery was sent to the strayed
// player, which then strayed on every turn and was sent away itself.
func TestForgedRepairWorldIsRefused(t *testing.T) {
	honest, forged := honestAndForged(t, 11)
	good := uint32(game.Sum64(honest))
	for _, tc := range []struct {
		name    string
		reports []byte // the digest the forger reports of its world
	}{
		{"the forger reports its forgery's digest", forged},
		{"the forger reports the honest digest", honest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			b.startGame(4)
			b.advance(1, 4, good, nil)
			b.playIdle(2, 4)
			b.hashes(2, 4, good, map[room.ConnID]uint32{4: 0xbad}) // slot 3 strays at turn 2
			if _, ok := asked[wire.SnapshotRequest](b.peer(1)); !ok {
				t.Fatalf("the first of the others was not asked for a world: %v", b.peer(1).got)
			}
			turn, _ := asked[wire.SnapshotRequest](b.peer(1))
			b.advance(turn, 4, good, map[room.ConnID]uint32{4: 0xbad})
			b.peer(4).got = nil
			b.answer(1, claim{serves: forged, reports: tc.reports})
			b.answer(2, claim{serves: honest})
			b.answer(3, claim{serves: honest})
			b.tick(10 * time.Millisecond)
			if find(b.peer(4), func(m wire.SnapshotChunk) bool {
				return m.Hash == game.Sum64(forged) && string(m.Data) == string(forged[:len(m.Data)])
			}) &&
				!find(b.peer(4), func(m wire.SnapshotChunk) bool { return string(m.Data) == string(honest[:len(m.Data)]) }) {
				t.Fatal("the forged world was sent to the strayed player")
			}
			if !sentAway(b.peer(1)) {
				t.Fatal("the forger was not sent away")
			}
			// Another player is asked; its world repairs the strayed one.
			var from uint32
			for round := 0; round < 3 && !find(b.peer(4), func(m wire.Repair) bool { return m.Kind == wire.RepairWorld }); round++ {
				next, ok := asked[wire.SnapshotRequest](b.peer(2))
				if !ok {
					t.Fatalf("round %d: no honest player asked for its world after the forger", round)
				}
				b.advance(next, 4, good, map[room.ConnID]uint32{4: 0xbad})
				b.answer(2, claim{serves: honest})
				b.answer(3, claim{serves: honest})
				b.answer(4, claim{serves: honest[:100]}) // its own digest (of a strayed world)
			}
			var data []byte
			var asm wire.Assembly
			for _, m := range b.peer(4).got {
				if c, ok := m.(wire.SnapshotChunk); ok {
					if d, turn, _ := asm.Add(c); d != nil {
						data, from = d, turn
					}
				}
			}
			if string(data) != string(honest) {
				t.Fatalf("the strayed player was repaired from %d bytes, want the honest world", len(data))
			}
			b.advance(from, 4, good, map[room.ConnID]uint32{4: 0xbad}) // it takes the world in as it completes that turn
			b.send(4, wire.Repair{Kind: wire.RepairDone, Turn: from, Upto: from})
			b.advance(b.r.Turn()+3, 4, good, nil)
			st := b.r.Stats()
			if st.Repairs[3] != 1 || st.SentAway != 1 || sentAway(b.peer(4)) || b.r.Desync() != nil {
				t.Fatalf("repairs of the strayed player %d (want 1), sent away %d (want 1, the forger), strayed player sent away %v, desync %+v",
					st.Repairs[3], st.SentAway, sentAway(b.peer(4)), b.r.Desync())
			}
			if st.Lies != 1 {
				t.Errorf("lies counted %d, want 1", st.Lies)
			}
		})
	}
}
