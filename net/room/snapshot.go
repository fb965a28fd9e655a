package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// The room runs no engine, so a snapshot for a spectator or a returning
// player comes from a playing client: the room asks one for its world at
// the end of a turn ahead of everyone's (checkTurn), and every player for
// its digest of that turn (digest.go); it relays the world, followed by
// the master turns after it, once a strict majority of the voters' digests
// is the world's (wire.WorldSum of its bytes; the checksum game.Sum64 only
// says the chunks came whole). One that is not is refused, its sender is
// not asked again this game while another player can be, and another
// player is asked at once; one that contradicts its sender's own reports,
// or hashes like the agreed world without being it, is a lie (repair.go:
// lied, forged). See docs/ARCHITECTURE.md, "The room runs no engine code".

const (
	snapshotAsk   = time.Second            // ask another client if no snapshot came by then
	snapshotEvery = 250 * time.Millisecond // resend chunks to a client that has not restored
)

type snapshotRelay struct {
	ready bool // data holds a whole, checked snapshot
	turn  uint32
	hash  uint64   // game.Sum64 of data
	sum   wire.Sum // wire.WorldSum of data
	data  []byte

	asking  bool
	src     ConnID
	askAt   time.Duration
	askTurn uint32
	asm     wire.Assembly

	// checking: data holds a whole snapshot from src, of turn with hash,
	// waiting for the others' hashes of that turn.
	checking bool
	srcSlot  int

	refused     uint8  // slots whose snapshot did not match the agreed hash
	refusedGame uint32 // the game refused is of
}

// startSnapshot marks m as needing a snapshot before the master stream.
func (r *Room) startSnapshot(m *member) {
	m.needSnap = true
	m.lastChunks = r.now - snapshotEvery
	r.relaySnapshots()
}

// usable reports whether the held snapshot can still be followed by the
// master turns the room keeps.
func (r *Room) usable() bool {
	s := &r.snap
	return s.ready && r.nextTurn-s.turn < masterRing/2 && s.turn < r.nextTurn
}

func (r *Room) relaySnapshots() {
	waiting := false
	for _, m := range r.members {
		if m.needSnap && m.connected {
			waiting = true
			break
		}
	}
	if !waiting || r.state != wire.StateRunning {
		return
	}
	r.checkSnapshot() // the others' hashes may have come in
	s := &r.snap
	if !r.usable() {
		if !s.asking || r.now-s.askAt >= snapshotAsk {
			r.askSnapshot()
		}
		return
	}
	for _, m := range r.members {
		if !m.needSnap || !m.connected || r.now-m.lastChunks < snapshotEvery {
			continue
		}
		m.lastChunks = r.now
		m.snapTurn = s.turn
		m.masterAck, m.sentTo, m.resentTo = s.turn+1, s.turn+1, s.turn+1
		st := r.startMessage()
		st.FirstTurn = s.turn + 1
		tm := r.timingAt(s.turn + 1)
		st.K, st.Delay = tm.k, tm.delay
		if r.hasPending && r.pending.at > s.turn+1 {
			st.ChangeAt, st.ChangeK, st.ChangeDelay = r.pending.at, r.pending.k, r.pending.delay
		}
		r.send(m.conn, st)
		total := (len(s.data) + wire.MaxChunk - 1) / wire.MaxChunk
		for i := 0; i < total; i++ {
			end := min((i+1)*wire.MaxChunk, len(s.data))
			r.send(m.conn, wire.SnapshotChunk{Turn: s.turn, Hash: s.hash, Total: uint8(total), Index: uint8(i), Data: s.data[i*wire.MaxChunk : end]})
		}
	}
}

// askSnapshot asks the lowest playing, connected, up-to-date client for its
// world, preferring a different one from the last that failed to answer.
func (r *Room) askSnapshot() {
	s := &r.snap
	if data, turn, hash, ok := r.refereeWorld(); ok {
		// The room's own world (referee.go): nobody is asked.
		s.data = append(s.data[:0], data...)
		s.turn, s.hash, s.sum = turn, hash, wire.WorldSum(data)
		s.ready, s.asking, s.checking = true, false, false
		r.relaySnapshots()
		return
	}
	pick := r.snapshotSource()
	if pick == nil {
		return
	}
	turn := r.checkTurn()
	s.asking, s.checking, s.src, s.srcSlot, s.askAt, s.askTurn = true, false, pick.conn, pick.slot, r.now, turn
	s.asm.Reset()
	r.send(pick.conn, wire.SnapshotRequest{Turn: turn})
	r.askDigests(turn)
}

// snapshotSource returns the player to ask for the world: the lowest
// playing, connected, up-to-date one, a different one from the last that
// failed to answer if there is one, and one whose snapshot was refused
// only if no one else can be asked; nil if nobody can be asked.
func (r *Room) snapshotSource() *member {
	s := &r.snap
	refused := s.refused
	if s.refusedGame != r.game {
		refused = 0
	}
	var pick *member
	better := func(m *member) bool {
		switch {
		case pick == nil:
			return true
		case refused&(1<<pick.slot) != 0 && refused&(1<<m.slot) == 0:
			return true
		case refused&(1<<m.slot) != 0 && refused&(1<<pick.slot) == 0:
			return false
		}
		return s.asking && pick.conn == s.src
	}
	for i := range r.slots {
		sl := &r.slots[i]
		m := sl.m
		if !sl.life.live() || m == nil || !m.connected || !m.started || m.needSnap || r.voters()&(1<<i) == 0 {
			continue
		}
		if better(m) {
			pick = m
		}
	}
	return pick
}

// stranded reports whether a returning player can get no world to catch up
// from: the room holds no snapshot the master turns it keeps can follow,
// and nobody playing can be asked for one.
func (r *Room) stranded() bool {
	return !r.usable() && r.snapshotSource() == nil
}

func (r *Room) onSnapshotChunk(m *member, c wire.SnapshotChunk) {
	if r.child == wire.ChildDesynced {
		r.onDesyncChunk(m, c)
		return
	}
	if r.state == wire.StateFinished {
		r.onFinalChunk(m, c) // the ended game's world (final.go)
		return
	}
	if r.onRepairChunk(m, c) {
		return // a world asked for a repair (repair.go)
	}
	s := &r.snap
	if r.state != wire.StateRunning || !s.asking || m.conn != s.src || c.Turn < s.askTurn || c.Turn >= r.nextTurn {
		r.drop(DropSnapshot)
		return
	}
	data, turn, hash := s.asm.Add(c)
	if data == nil {
		return
	}
	if game.Sum64(data) != hash {
		r.drop(DropSnapshot)
		s.askAt = r.now - snapshotAsk // ask someone again at once
		return
	}
	s.data = append(s.data[:0], data...)
	s.turn, s.hash, s.sum, s.ready, s.checking = turn, hash, wire.WorldSum(data), false, true
	r.checkSnapshot()
	r.relaySnapshots()
}

// checkSnapshot settles a snapshot waiting for the others' digests:
// relayed once they agree with it, refused (and another player asked) as
// soon as they cannot.
func (r *Room) checkSnapshot() {
	s := &r.snap
	if !s.checking {
		return
	}
	v := r.judgeWorld(s.srcSlot, s.turn, s.hash, s.sum)
	switch v {
	case worldAgreed:
		s.ready, s.asking, s.checking = true, false, false
		return
	case worldUnknown:
		return
	}
	if s.refusedGame != r.game {
		s.refused, s.refusedGame = 0, r.game
	}
	if s.srcSlot >= 0 {
		s.refused |= 1 << s.srcSlot
	}
	s.checking = false
	s.askAt = r.now - snapshotAsk // ask someone else at once
	switch v {
	case worldLie:
		r.lied(s.srcSlot, s.turn)
	case worldForged:
		r.forged(s.srcSlot, s.turn)
	default:
		r.drop(DropSnapshot)
	}
}

// liveMask returns the slots the room waits for: in the game, live, not
// being dropped.
func (r *Room) liveMask() uint8 {
	var need uint8
	for i := range r.slots {
		if r.slots[i].life.waitedOn() {
			need |= 1 << i
		}
	}
	return need
}

// onDesyncChunk assembles a player's world sent for the desync report and
// hands it to the recorder; the room checks only that it is whole.
func (r *Room) onDesyncChunk(m *member, c wire.SnapshotChunk) {
	if r.rec == nil || m.slot < 0 || r.desync == nil {
		r.drop(DropSnapshot)
		return
	}
	if r.desyncDone&(1<<m.slot) != 0 {
		return // this player's world is in already; ignore repeats
	}
	data, turn, hash := r.desyncAsm[m.slot].Add(c)
	if data != nil && game.Sum64(data) == hash {
		r.rec.Snapshot(m.slot, turn, data)
		r.desyncDone |= 1 << m.slot
	}
}
