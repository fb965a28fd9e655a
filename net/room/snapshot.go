package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// The room runs no engine, so a snapshot for a spectator or a returning
// player comes from a playing client: the room asks one for its world at
// the end of a turn, checks the bytes against the hash the client states
// and against the hashes other players reported for that turn, and relays
// it, followed by the master turns after it.

const (
	snapshotAsk   = time.Second            // ask another client if no snapshot came by then
	snapshotEvery = 250 * time.Millisecond // resend chunks to a client that has not restored
)

type snapshotRelay struct {
	ready bool // data holds a whole, checked snapshot
	turn  uint32
	hash  uint64
	data  []byte

	asking  bool
	src     ConnID
	askAt   time.Duration
	askTurn uint32
	asm     wire.Assembly
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
	pick := r.snapshotSource()
	if pick == nil {
		return
	}
	turn := uint32(0)
	if r.nextTurn > 0 {
		turn = r.nextTurn - 1
	}
	s.asking, s.src, s.askAt, s.askTurn = true, pick.conn, r.now, turn
	s.asm.Reset()
	r.send(pick.conn, wire.SnapshotRequest{Turn: turn})
}

// snapshotSource returns the player to ask for the world: the lowest
// playing, connected, up-to-date one, a different one from the last that
// failed to answer if there is one; nil if nobody can be asked.
func (r *Room) snapshotSource() *member {
	s := &r.snap
	var pick *member
	for i := range r.slots {
		sl := &r.slots[i]
		m := sl.m
		if !sl.inGame || !sl.live || m == nil || !m.connected || !m.started || m.needSnap {
			continue
		}
		if pick == nil || (s.asking && pick.conn == s.src) {
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
	s := &r.snap
	if r.state != wire.StateRunning || !s.asking || m.conn != s.src || c.Turn < s.askTurn || c.Turn >= r.nextTurn {
		r.drop(DropSnapshot)
		return
	}
	data, turn, hash := s.asm.Add(c)
	if data == nil {
		return
	}
	if game.Sum64(data) != hash || !r.hashAgrees(turn, uint32(hash)) {
		r.drop(DropSnapshot)
		s.askAt = r.now - snapshotAsk // ask someone again at once
		return
	}
	s.data = append(s.data[:0], data...)
	s.turn, s.hash, s.ready, s.asking = turn, hash, true, false
	r.relaySnapshots()
}

// hashAgrees reports whether no other player reported a different hash for
// turn.
func (r *Room) hashAgrees(turn uint32, low uint32) bool {
	rec := &r.hashes[turn%hashRing]
	if rec.turn != turn {
		return true
	}
	for i := 0; i < game.MaxPlayers; i++ {
		if rec.mask&(1<<i) != 0 && rec.hashes[i] != low {
			return false
		}
	}
	return true
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
