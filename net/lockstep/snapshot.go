package lockstep

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// snapshotIO is the session's side of snapshots: one being received to
// catch up into a running game, and one the room asked for.
type snapshotIO struct {
	asm      wire.Assembly
	data     []byte // a whole snapshot received, waiting for its Start
	turn     uint32
	hash     uint64
	have     bool
	want     bool   // the room asked for our world at the end of wantTurn
	wantTurn uint32 // (or the first turn completed after it)
}

// onSnapshotRequest sends the world at the end of turn: from the recent
// worlds kept (after a desync the room wants exactly the diverging turn),
// now if that turn is the last one completed, or when it is completed.
func (s *Session) onSnapshotRequest(turn uint32) {
	g := &s.game
	if g.world == nil {
		return
	}
	if g.ended && turn == g.endTurn {
		// The game's end, for a player who rejoins after it (net/room's
		// final.go): nothing ran after that turn.
		s.sendWorld(g.world, turn)
		return
	}
	if n := len(g.recent); n > 0 {
		if r := &g.recent[turn%uint32(n)]; r.ok && r.turn == turn {
			s.sendWorld(&r.w, turn)
			return
		}
	}
	s.snap.want, s.snap.wantTurn = true, turn
	if s.phase == Playing && g.tickIn == 0 && g.turn > 0 && g.turn-1 >= turn {
		s.snap.want = false
		s.sendWorld(g.world, g.turn-1)
	}
}

// sendWorld sends w, the world at the end of turn, in chunks.
func (s *Session) sendWorld(w *game.World, turn uint32) {
	data, err := w.MarshalBinary()
	if err != nil {
		return
	}
	h := game.Sum64(data)
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	if total > wire.MaxChunks {
		return
	}
	for i := 0; i < total; i++ {
		end := min((i+1)*wire.MaxChunk, len(data))
		s.send(wire.SnapshotChunk{Turn: turn, Hash: h, Total: uint8(total), Index: uint8(i), Data: data[i*wire.MaxChunk : end]})
	}
}

func (s *Session) onChunk(c wire.SnapshotChunk) {
	if s.phase == Lobby {
		s.onAwayChunk(c) // back after the game ended: its world, for the results
		return
	}
	if s.phase == Playing && s.repair.want {
		s.onRepairChunk(c) // the majority's world (repair.go)
		return
	}
	if s.phase != Starting {
		return
	}
	sn := &s.snap
	if data, turn, hash := sn.asm.Add(c); data != nil {
		sn.data = append(sn.data[:0], data...)
		sn.turn, sn.hash, sn.have = turn, hash, true
		s.tryRestore()
	}
}

// tryRestore starts the game from the assembled snapshot once the Start
// that goes with it is known.
func (s *Session) tryRestore() {
	sn, g := &s.snap, &s.game
	if !sn.have || !g.haveStart || g.start.FirstTurn != sn.turn+1 {
		return
	}
	sn.have = false
	if game.Sum64(sn.data) != sn.hash {
		s.stats.MalformedIn++
		return
	}
	w := new(game.World)
	if err := w.UnmarshalBinary(sn.data); err != nil {
		s.stats.MalformedIn++
		return
	}
	g.world = w
	s.begin()
}
