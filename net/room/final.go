package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// A player who comes back with its token after its game ended (its
// machine crashed and restarted while the others played on) has no world
// of that game, and the room runs no engine. So when a game ends the room
// keeps its final world: it asks a player for its world at the end of the
// final turn and checks it as every snapshot is checked (its bytes hash,
// game.Sum64, to the hash a strict majority of the live players reported
// for that turn, which the end rule already compared: snapshotVerdict).
// While the room shows that game's results (finished), a player of the
// game who rejoins is sent it, and reads the results table from it, the
// same table the others show (docs/ARCHITECTURE.md, "One host").

// finalSends is how many times a returning player is sent the final
// world, snapshotEvery apart: it acknowledges nothing, so a lost chunk is
// made good by the next sending.
const finalSends = 3

// finalWorld is the last game's world at its end, for a late rejoiner.
type finalWorld struct {
	game  uint32 // the game it is of (Room.game); 0: none
	turn  uint32 // the game's last turn: the world is at its end
	hash  uint64 // game.Sum64 of data
	data  []byte
	ready bool // data holds the checked world

	asking bool
	src    ConnID
	askAt  time.Duration
	tried  uint8 // slots asked this game whose answer did not come or was refused
	asm    wire.Assembly

	to [game.MaxPlayers]finalSend // by slot: returning players to send it to
}

// finalSend is a returning player the final world is sent to.
type finalSend struct {
	conn ConnID
	left int           // sendings to go
	at   time.Duration // the last sending
}

// keepFinal starts keeping the world of the game that just ended at turn
// final (finish). A game every player left, or that desynced, has no
// world to keep.
func (r *Room) keepFinal(reason wire.EndReason, final uint32) {
	f := &r.fin
	*f = finalWorld{data: f.data[:0]}
	if reason == wire.EndEmpty || r.desync != nil {
		return
	}
	f.game, f.turn = r.game, final
	r.askFinal()
}

// askFinal asks a player of the game, connected and playing, for its world
// at the end of the final turn: one not yet tried this game if there is
// one.
func (r *Room) askFinal() {
	f := &r.fin
	var pick *member
	for i := range r.slots {
		s := &r.slots[i]
		m := s.m
		if !s.inGame || !s.live || m == nil || !m.connected {
			continue
		}
		if pick == nil || (f.tried&(1<<pick.slot) != 0 && f.tried&(1<<i) == 0) {
			pick = m
		}
	}
	if pick == nil {
		return
	}
	if f.tried&(1<<pick.slot) != 0 {
		f.tried = 0 // every player was tried: round again
	}
	f.asking, f.src, f.askAt = true, pick.conn, r.now
	f.tried |= 1 << pick.slot
	f.asm.Reset()
	r.send(pick.conn, wire.SnapshotRequest{Turn: f.turn})
}

// finalHeld reports whether the room, finished, keeps the world of the
// game it shows the results of.
func (r *Room) finalHeld() bool {
	return r.state == wire.StateFinished && r.fin.game == r.game && r.fin.game != 0
}

// tickFinal asks again for the final world when no answer came in time,
// and sends it to the returning players due a sending.
func (r *Room) tickFinal() {
	f := &r.fin
	if !r.finalHeld() {
		return
	}
	if !f.ready && (!f.asking || r.now-f.askAt >= snapshotAsk) {
		r.askFinal()
	}
	if !f.ready {
		return
	}
	for i := range f.to {
		d := &f.to[i]
		if d.left <= 0 || r.now-d.at < snapshotEvery {
			continue
		}
		d.left--
		d.at = r.now
		if m := r.conns[d.conn]; m == nil || m.slot != i || !m.connected {
			d.left = 0 // gone, or the slot is someone else's now
			continue
		}
		total := (len(f.data) + wire.MaxChunk - 1) / wire.MaxChunk
		for c := 0; c < total; c++ {
			end := min((c+1)*wire.MaxChunk, len(f.data))
			r.send(d.conn, wire.SnapshotChunk{Turn: f.turn, Hash: f.hash, Total: uint8(total), Index: uint8(c), Data: f.data[c*wire.MaxChunk : end]})
		}
	}
}

// onFinalChunk takes a chunk of the final world from the player asked for
// it; anything else is dropped (DropSnapshot).
func (r *Room) onFinalChunk(m *member, c wire.SnapshotChunk) {
	f := &r.fin
	if !r.finalHeld() || f.ready || !f.asking || m.conn != f.src || c.Turn != f.turn {
		r.drop(DropSnapshot)
		return
	}
	data, turn, hash := f.asm.Add(c)
	if data == nil {
		return
	}
	if game.Sum64(data) != hash || r.snapshotVerdict(turn, hash) != snapAgreed {
		// Not the world the players agreed ended the game: ask another.
		r.drop(DropSnapshot)
		f.asking = false
		return
	}
	f.data = append(f.data[:0], data...)
	f.hash, f.ready, f.asking = hash, true, false
	r.tickFinal() // a player may be waiting for it already
}

// sendFinal sends the final world to m, a player of the ended game who
// came back with its token while the room shows the results (catchUp);
// once the room has it, if it does not yet.
func (r *Room) sendFinal(m *member) {
	if !r.finalHeld() || m.slot < 0 || r.setup.Players&(1<<m.slot) == 0 {
		return
	}
	r.fin.to[m.slot] = finalSend{conn: m.conn, left: finalSends, at: r.now - snapshotEvery}
	r.tickFinal()
}
