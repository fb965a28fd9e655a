package room

import (
	"fmt"
	"math"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Desync repair (docs/ARCHITECTURE.md §1, "Desync repair"). When the
// hashes of a turn differ, judge says who is right:
//
//   - A strict majority of the live players agrees: the others have
//     strayed. Their hashes are not compared until they are repaired; the
//     game goes on without waiting for anyone (the room never waits for
//     hashes, only for inputs, and a strayed player's inputs still come).
//     The room asks a majority player for its world at the turn that
//     differed (the snapshot path of snapshot.go: a turn it still holds, or
//     the next it completes), checks it against the majority's hash of its
//     turn, and sends it to each strayed player (wire.Repair, then the
//     chunks), which restores it, executes again the master turns after
//     it that it holds, and says so (wire.RepairDone). Its hashes are
//     compared again from the turn after the one it had reached.
//   - No strict majority and every live player reported: every player
//     restores its own world of the last turn all hashes agreed on and
//     executes the turns after it again. If the hashes split again within
//     rewindAgain, the game stops as desynced: the engine is not
//     deterministic for this game.
//
// A player repaired maxRepairs times within repairWindow that strays again
// is sent away (wire.LeaveStrayed) and dropped by a master turn
// (wire.EventStrayed). The report of every stray is still recorded (the
// hashes, and the worlds of the strayed player and of the majority
// player), and the replay notes each repair, so that verifying it skips the
// hashes the strayed player reported from the turn it strayed to the turn
// it was repaired at.

// repairState is the room's side of repairs in the running game.
type repairState struct {
	slots [game.MaxPlayers]repairSlot

	// The majority world being asked for, and held once it came.
	asking    bool
	src       int // the slot asked
	askAt     time.Duration
	tried     uint8 // slots whose world was refused or never came, this round
	asked     uint8 // slots whose world the room waits for (the source, and strayed players for the report)
	asm       [game.MaxPlayers]wire.Assembly
	recorded  uint8 // slots whose world is in the report of the current stray
	world     []byte
	worldTurn uint32
	worldHash uint64
	have      bool // world holds a whole world from src
	checked   bool // its hash is the majority's for worldTurn

	// A rewind of every player (no majority).
	rewindAt  time.Duration // when the players last rewound (0: never this game)
	rewinding uint8         // slots that have not rewound yet
	rewindTo  uint32        // the turn they restore
	rewindOf  uint32        // the turn whose hashes split

	out uint8 // slots sent away for straying: their drop is an EventStrayed
}

// repairSlot is one player's repairs.
type repairSlot struct {
	strayed   bool
	at        uint32        // the turn it strayed at
	since     time.Duration // when the room saw it stray
	sent      bool          // the majority's world was sent to it
	sentAt    time.Duration // when
	sentTurn  uint32        // the turn of the world sent
	hashFrom  uint32        // its hashes of turns below this are of its world before a repair: ignored
	repairs   [maxRepairs]time.Duration
	repairing bool // strayed or rewinding: waiting for its RepairDone
}

// RepairKind says what a RepairNote reports.
type RepairKind uint8

// Repair notes.
const (
	RepairStrayed  RepairKind = iota + 1 // the player's hash differed from the majority's at Turn
	RepairDone                           // the player was repaired; Took is from its stray
	RepairRewound                        // no majority at Turn: every player rewinds
	RepairSentAway                       // the player strayed once more than the room allows
	RepairStopped                        // the hashes split again after a rewind: the game stops (desynced)
)

// RepairNote is what Config.OnRepair is told, for the log.
type RepairNote struct {
	Kind RepairKind
	Slot int // -1: every player
	Name string
	Turn uint32
	Took time.Duration // RepairDone: from the first differing hash to back in step, on the room's clock
}

// strayedText is what a player sent away for straying is told.
const strayedText = "your game keeps disagreeing with the others' — this can be another version of Rockstep or a fault in this computer"

func (r *Room) resetRepair() {
	world := r.repair.world[:0]
	r.repair = repairState{world: world}
}

func (r *Room) noteRepair(n RepairNote) {
	if n.Slot >= 0 && n.Slot < game.MaxPlayers {
		n.Name = r.cast[n.Slot]
	}
	if r.cfg.OnRepair != nil {
		r.cfg.OnRepair(n)
	}
}

// hashIgnored reports whether slot's hash of turn is left out of every
// comparison: the slot is being repaired, or the hash is of its world
// before a repair.
func (r *Room) hashIgnored(slot int, turn uint32) bool {
	rs := &r.repair.slots[slot]
	return rs.repairing || turn < rs.hashFrom
}

// repairing returns the slots whose hashes are not compared now.
func (r *Room) repairingMask() uint8 {
	var m uint8
	for i := range r.repair.slots {
		if r.repair.slots[i].repairing {
			m |= 1 << i
		}
	}
	return m
}

// hashesDiffer reports whether the hashes compared for rec differ.
func (r *Room) hashesDiffer(rec *hashRecord) bool {
	in := rec.mask &^ r.repairingMask()
	first, seen := uint32(0), false
	for i := 0; i < game.MaxPlayers; i++ {
		if in&(1<<i) == 0 {
			continue
		}
		if seen && rec.hashes[i] != first {
			return true
		}
		first, seen = rec.hashes[i], true
	}
	return false
}

// judgeTurn acts on the hashes of rec, which differ.
func (r *Room) judgeTurn(rec *hashRecord) {
	if r.cfg.NoRepair {
		r.declareDesync(rec)
		return
	}
	v := judge(rec.mask&^r.repairingMask(), &rec.hashes, r.liveMask())
	switch {
	case v.majority:
		for i := 0; i < game.MaxPlayers; i++ {
			if v.strayed&(1<<i) != 0 {
				r.stray(i, rec)
			}
		}
	case v.split:
		r.rewind(rec)
	}
}

// stray starts the repair of slot, whose hash of rec's turn differs from
// the majority's, or sends it away if it strayed too often.
func (r *Room) stray(slot int, rec *hashRecord) {
	rs := &r.repair.slots[slot]
	if rs.repairing {
		return
	}
	if repairsWithin(&rs.repairs, r.now) >= maxRepairs {
		if n, ok := r.rec.(Noter); ok {
			n.Note(RepairNoteText(slot, rec.turn, math.MaxUint32)) // its last hashes, of a world that strayed
		}
		r.sendAwayStrayed(slot)
		return
	}
	rs.strayed, rs.repairing, rs.at, rs.since, rs.sent = true, true, rec.turn, r.now, false
	r.noteRepair(RepairNote{Kind: RepairStrayed, Slot: slot, Turn: rec.turn})
	r.recordStray(rec, slot)
	r.askRepairWorld(rec.turn)
}

// recordStray writes the report of a stray into the replay, as a desync's
// is: the hashes of the turn, and the worlds (asked of the strayed player
// here, of the majority player with the world for the repair).
func (r *Room) recordStray(rec *hashRecord, slot int) {
	if r.rec == nil {
		return
	}
	d := &DesyncInfo{Turn: rec.turn}
	for i := 0; i < game.MaxPlayers; i++ {
		if rec.mask&(1<<i) != 0 {
			d.Entries = append(d.Entries, wire.HashEntry{Slot: uint8(i), HashLow: rec.hashes[i]})
		}
	}
	r.rec.Desync(d)
	r.repair.recorded = 0
	if slot >= 0 {
		if m := r.slots[slot].m; m != nil && m.connected {
			r.repair.asm[slot].Reset()
			r.repair.asked |= 1 << slot
			r.send(m.conn, wire.SnapshotRequest{Turn: rec.turn})
		}
	}
}

// askRepairWorld asks a player of the majority for its world at turn (or
// the first turn it completes after it), unless a world is held or asked
// for already: any world the majority agrees on repairs every strayed
// player, whatever turn it strayed at.
func (r *Room) askRepairWorld(turn uint32) {
	rp := &r.repair
	if rp.checked && r.nextTurn-rp.worldTurn < masterRing/4 {
		r.sendRepairs()
		return
	}
	if rp.asking && r.now-rp.askAt < repairAsk {
		return
	}
	src := r.repairSource()
	if src < 0 {
		return // nobody to ask now; tickRepair asks again
	}
	m := r.slots[src].m
	rp.asking, rp.src, rp.askAt, rp.have, rp.checked = true, src, r.now, false, false
	rp.asm[src].Reset()
	rp.asked |= 1 << src
	r.send(m.conn, wire.SnapshotRequest{Turn: turn})
}

// repairSource returns the slot to ask for the majority's world: a live,
// connected, playing one not being repaired, one not tried this round
// first; -1 if there is none.
func (r *Room) repairSource() int {
	pick := -1
	for i := range r.slots {
		s := &r.slots[i]
		m := s.m
		if !s.life.waitedOn() || m == nil || !m.connected || !m.started || m.needSnap || r.repair.slots[i].repairing {
			continue
		}
		if r.repair.tried&(1<<i) == 0 {
			return i
		}
		if pick < 0 {
			pick = i
		}
	}
	if pick >= 0 {
		r.repair.tried = 0 // everyone was tried: start again
	}
	return pick
}

// onRepairChunk takes a chunk of a world the room asked for a repair or
// its report; it reports false for a chunk that is not one of those.
func (r *Room) onRepairChunk(m *member, c wire.SnapshotChunk) bool {
	rp := &r.repair
	if m.slot < 0 || rp.asked&(1<<m.slot) == 0 {
		return false
	}
	data, turn, hash := rp.asm[m.slot].Add(c)
	if data == nil {
		return true
	}
	rp.asked &^= 1 << m.slot
	if game.Sum64(data) != hash {
		r.drop(DropSnapshot)
		if rp.asking && m.slot == rp.src {
			rp.tried |= 1 << m.slot
			rp.askAt = r.now - repairAsk // ask someone else at once
		}
		return true
	}
	if r.rec != nil && rp.recorded&(1<<m.slot) == 0 {
		r.rec.Snapshot(m.slot, turn, data)
		rp.recorded |= 1 << m.slot
	}
	if rp.asking && m.slot == rp.src {
		rp.world = append(rp.world[:0], data...)
		rp.worldTurn, rp.worldHash, rp.have, rp.checked, rp.asking = turn, hash, true, false, false
		r.checkRepairWorld()
	}
	return true
}

// checkRepairWorld settles the world held: sent to the strayed players once
// the majority's hash of its turn is known and agrees, refused (and
// another player asked) if it differs.
func (r *Room) checkRepairWorld() {
	rp := &r.repair
	if !rp.have || rp.checked {
		r.sendRepairs()
		return
	}
	rec := &r.hashes[rp.worldTurn%hashRing]
	if rec.turn != rp.worldTurn || rp.worldTurn >= r.nextTurn {
		return // no reports of its turn yet
	}
	v := judge(rec.mask&^r.repairingMask(), &rec.hashes, r.liveMask())
	switch {
	case v.majority && v.hash == uint32(rp.worldHash):
		rp.checked = true
		r.sendRepairs()
	case v.majority || v.split:
		r.drop(DropSnapshot) // not the majority's world
		rp.have = false
		rp.tried |= 1 << rp.src
		rp.askAt = r.now - repairAsk
	}
}

// sendRepairs sends the checked majority world to every strayed player
// that has not been sent one.
func (r *Room) sendRepairs() {
	rp := &r.repair
	if !rp.checked {
		return
	}
	data := rp.world
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	if total < 1 || total > wire.MaxChunks {
		return
	}
	for i := range rp.slots {
		rs := &rp.slots[i]
		m := r.slots[i].m
		if !rs.strayed || rs.sent || m == nil || !m.connected {
			continue
		}
		rs.sent, rs.sentAt, rs.sentTurn = true, r.now, rp.worldTurn
		r.send(m.conn, wire.Repair{Kind: wire.RepairWorld, Turn: rs.at})
		for j := 0; j < total; j++ {
			end := min((j+1)*wire.MaxChunk, len(data))
			r.send(m.conn, wire.SnapshotChunk{Turn: rp.worldTurn, Hash: rp.worldHash, Total: uint8(total), Index: uint8(j), Data: data[j*wire.MaxChunk : end]})
		}
	}
}

// onRepair takes a player's word that it restored the world of turn
// msg.Turn and executed again up to msg.Upto.
func (r *Room) onRepair(m *member, msg wire.Repair) {
	if r.state != wire.StateRunning || m.slot < 0 || msg.Kind != wire.RepairDone || msg.Upto < msg.Turn {
		r.drop(DropUnexpected)
		return
	}
	rp := &r.repair
	rs := &rp.slots[m.slot]
	switch {
	case rs.strayed && rs.sent && msg.Turn == rs.sentTurn:
		rs.strayed, rs.repairing = false, false
		r.inStepAgain(m.slot, rs.at, msg.Upto)
		noteRepair(&rs.repairs, r.now)
		r.stats.Repairs[m.slot]++
		r.noteRepair(RepairNote{Kind: RepairDone, Slot: m.slot, Turn: rs.at, Took: r.now - rs.since})
	case rp.rewinding&(1<<m.slot) != 0 && msg.Turn == rp.rewindTo:
		rp.rewinding &^= 1 << m.slot
		rs.repairing = false
		r.inStepAgain(m.slot, rp.rewindTo+1, msg.Upto)
	default:
		r.drop(DropUnexpected) // a repeat, or of a repair that was not asked for
	}
}

// inStepAgain compares slot's hashes again from the turn after upto (the
// turn its world was brought up to: the hashes it reported before, of
// turns up to there, are of the world that strayed), and notes in the
// replay that its hashes of turns from..upto are not to be checked.
func (r *Room) inStepAgain(slot int, from, upto uint32) {
	rs := &r.repair.slots[slot]
	rs.hashFrom = max(rs.hashFrom, upto+1)
	for i := range r.hashes {
		rec := &r.hashes[i]
		if rec.turn >= from && rec.turn <= upto {
			rec.mask &^= 1 << slot
			rec.ended &^= 1 << slot
		}
	}
	if n, ok := r.rec.(Noter); ok {
		n.Note(RepairNoteText(slot, from, upto))
	}
}

// RepairNoteText is the replay note of a repair: slot's hashes of turns
// from..upto are of a world that strayed, and are not checked.
func RepairNoteText(slot int, from, upto uint32) string {
	return fmt.Sprintf("repair slot=%d turns=%d-%d", slot, from, upto)
}

// rewind makes every player restore its own world of the last turn on
// which every hash agreed, after the hashes of rec split with no majority;
// a second split soon after a rewind stops the game.
func (r *Room) rewind(rec *hashRecord) {
	rp := &r.repair
	if rp.rewinding != 0 {
		return // rewinding already
	}
	if rp.rewindAt != 0 && r.now-rp.rewindAt < rewindAgain {
		r.noteRepair(RepairNote{Kind: RepairStopped, Slot: -1, Turn: rec.turn})
		if n, ok := r.rec.(Noter); ok {
			n.Note(fmt.Sprintf("the hashes of turn %d differed again after a rewind: the engine is not deterministic for this game", rec.turn))
		}
		r.declareDesync(rec)
		return
	}
	live := r.liveMask()
	to, found := r.lastAgreed(rec.turn, live)
	if !found {
		r.declareDesync(rec)
		return
	}
	rp.rewindAt, rp.rewinding, rp.rewindTo, rp.rewindOf = max(r.now, 1), live, to, rec.turn
	r.noteRepair(RepairNote{Kind: RepairRewound, Slot: -1, Turn: rec.turn})
	r.recordStray(rec, -1)
	for i := range r.slots {
		if live&(1<<i) == 0 {
			continue
		}
		r.repair.slots[i].repairing = true
		if m := r.slots[i].m; m != nil && m.connected {
			r.send(m.conn, wire.Repair{Kind: wire.RepairRewind, Turn: to, Upto: rec.turn})
		}
	}
}

// rewindBack bounds how far back a rewind goes: the players keep their
// worlds of the last turns (lockstep.Config.KeepWorlds), not more.
const rewindBack = 12 // turns

// lastAgreed returns the last turn before turn whose hashes every live
// player reported alike.
func (r *Room) lastAgreed(turn uint32, live uint8) (uint32, bool) {
	for back := uint32(1); back <= rewindBack && back <= turn; back++ {
		t := turn - back
		rec := &r.hashes[t%hashRing]
		if rec.turn != t || rec.mask&live != live {
			continue
		}
		if v := judge(rec.mask, &rec.hashes, live); v.majority && v.strayed == 0 {
			return t, true
		}
	}
	return 0, false
}

// tickRepair asks again for a world that did not come, sends it again to a
// player that did not answer, and stops a rewind that does not end.
func (r *Room) tickRepair() {
	rp := &r.repair
	if r.state != wire.StateRunning || r.child == wire.ChildDesynced {
		return
	}
	if rp.rewinding != 0 && r.now-rp.rewindAt > 3*repairAsk {
		for i := range rp.slots {
			if gone := rp.rewinding &^ r.liveMask(); gone&(1<<i) != 0 {
				// Away or gone: it catches up from a snapshot if it
				// comes back, and its old hashes are not compared.
				rp.slots[i].repairing = false
				rp.slots[i].hashFrom = max(rp.slots[i].hashFrom, r.nextTurn)
			}
		}
		rp.rewinding &= r.liveMask()
		if rp.rewinding != 0 {
			rec := &r.hashes[rp.rewindOf%hashRing]
			if rec.turn == rp.rewindOf {
				r.declareDesync(rec) // a player could not rewind
			}
			return
		}
	}
	waiting := false
	for i := range rp.slots {
		rs := &rp.slots[i]
		if !rs.strayed {
			continue
		}
		if s := &r.slots[i]; !s.life.staying() || s.life.away() || (s.m != nil && s.m.needSnap) {
			// Gone, or away: one that comes back catches up from a
			// majority's snapshot, which repairs it; its hashes are
			// compared from the turns after it.
			*rs = repairSlot{repairs: rs.repairs, hashFrom: max(rs.hashFrom, r.nextTurn)}
			continue
		}
		if rs.sent && r.now-rs.sentAt > 3*repairAsk {
			rs.sent = false // no answer: send a newer world
			rp.checked, rp.have = false, false
		}
		if !rs.sent {
			waiting = true
		}
	}
	if !waiting {
		return
	}
	r.checkRepairWorld()
	if !rp.checked && (!rp.asking || r.now-rp.askAt >= repairAsk) {
		if rp.asking {
			rp.tried |= 1 << rp.src // it did not answer
			rp.asking = false
		}
		turn := uint32(0)
		if r.nextTurn > 0 {
			turn = r.nextTurn - 1
		}
		r.askRepairWorld(turn)
	}
}

// sendAwayStrayed sends slot's player away: it strayed once more than the
// room allows. A master turn drops it (EventStrayed), as any dropped
// player is.
func (r *Room) sendAwayStrayed(slot int) {
	s := &r.slots[slot]
	r.stats.SentAway++
	r.repair.out |= 1 << slot
	r.repair.slots[slot] = repairSlot{}
	r.noteRepair(RepairNote{Kind: RepairSentAway, Slot: slot})
	if m := s.m; m != nil {
		r.send(m.conn, wire.Leave{Reason: wire.LeaveStrayed, Text: strayedText})
		r.onLeave(m)
		return
	}
	s.life.sendAway()
	r.statusDirty = true
	r.compile()
}
