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
//   - A strict majority of the voters (the live players not being repaired
//     and not caught lying) agrees: the others have strayed. Their hashes
//     are not compared until they are repaired; the game goes on without
//     waiting for anyone (the room never waits for hashes, only for
//     inputs, and a strayed player's inputs still come). The room asks a
//     voter for its world at a turn ahead of everyone's (checkTurn) and
//     every player for its digest of that turn (digest.go); it sends the
//     world to each strayed player (wire.Repair, then the chunks) only once
//     a strict majority of the voters' digests is the world's own. The
//     player restores it, executes again the master turns after it, and
//     says so (wire.RepairDone). Its hashes are compared again from the
//     turn after the one it had reached.
//   - No strict majority and every voter reported: every player restores
//     its own world of the last turn all hashes agreed on and executes the
//     turns after it again. If the hashes split again within rewindAgain,
//     the game stops as desynced: no player's world can be shown right
//     (lockstep.UnprovenText says so).
//
// Numbers are not worlds. A player asked for its world (the repair's
// source, and every strayed player, whose world of the turn it strayed at
// goes in the report) must send one that matches what it reported of that
// turn; one that does not is a lie (lies): its world is refused, the lie
// counted, its reports decide nothing for a while (suspect), and a second
// lie within repairWindow sends it away. A world that hashes like the
// agreed one (game.Sum64) but is not it (wire.WorldSum) was forged to
// collide: its sender is sent away at once. When every voter that could
// back the majority's numbers was caught lying, those numbers decided
// nothing: the players they said had strayed are in step again.
//
// A player repaired maxRepairs times within repairWindow that strays again
// is sent away (wire.LeaveStrayed) once a checked world shows the voters'
// numbers are backed (numbers no world backs send nobody away), and
// dropped by a master turn (wire.EventStrayed). With Config.Referee the
// room's own world (referee.go) decides instead of any vote. The report of
// every stray is still recorded (the hashes, and the worlds of the strayed
// player and of the majority player), and the replay notes each repair, so
// that verifying it skips the hashes the strayed player reported from the
// turn it strayed to the turn it was repaired at.

// repairState is the room's side of repairs in the running game.
type repairState struct {
	slots [game.MaxPlayers]repairSlot
	world repairWorld // the world a strayed player is repaired from

	asked    uint8 // slots whose world the room waits for (the source, and strayed players)
	asm      [game.MaxPlayers]wire.Assembly
	recorded uint8 // slots whose world is in the report of the current stray

	// A rewind of every player (no majority).
	rewindAt time.Duration // when the players last rewound (0: never this game)
	rewindTo uint32        // the turn they restore
	rewindOf uint32        // the turn whose hashes split

	out uint8 // slots sent away for straying or lying: their drop is an EventStrayed
}

// strayPhase is where one player is in a repair:
//
//	inStep     stray   → strayed    its hash differed from the voters' majority
//	strayed    send    → sent       a checked world went to it
//	sent       resend  → strayed    it did not answer: a newer world goes
//	sent       done    → inStep     it restored the world (RepairDone)
//	any        rewind  → rewinding  no majority: every player rewinds
//	rewinding  rewound → inStep     it restored its own world (RepairDone)
//	any        forget  → inStep     gone, away, or the numbers it strayed by were not backed
type strayPhase uint8

const (
	inStep strayPhase = iota
	phaseStrayed
	phaseSent
	phaseRewinding
)

// repairSlot is one player's repairs.
type repairSlot struct {
	phase    strayPhase
	at       uint32        // strayed, sent: the turn it strayed at
	claim    uint32        // its hash of turn at, which the world it sends of that turn must match
	since    time.Duration // when the room saw it stray
	sentAt   time.Duration // sent: when
	sentTurn uint32        // sent: the turn of the world sent
	hashFrom uint32        // its hashes of turns below this are of its world before a repair: ignored
	repairs  [maxRepairs]time.Duration
	lies     [maxLies]time.Duration // when its world did not back its reports
	last     bool                   // strayed once more than maxRepairs allow: a checked world sends it away
}

func (s *repairSlot) repairing() bool { return s.phase != inStep }

// stray marks the slot strayed at turn, having reported claim for it.
func (s *repairSlot) stray(turn, claim uint32, now time.Duration) bool {
	if s.phase != inStep {
		return false
	}
	s.phase, s.at, s.claim, s.since, s.last = phaseStrayed, turn, claim, now, false
	return true
}

// send records that a checked world of turn went to the strayed slot.
func (s *repairSlot) send(turn uint32, now time.Duration) bool {
	if s.phase != phaseStrayed {
		return false
	}
	s.phase, s.sentAt, s.sentTurn = phaseSent, now, turn
	return true
}

// resend puts a slot that did not answer back to waiting for a world.
func (s *repairSlot) resend() bool {
	if s.phase != phaseSent {
		return false
	}
	s.phase = phaseStrayed
	return true
}

// done ends the repair of a slot that restored the world of turn sent.
func (s *repairSlot) done(turn uint32) bool {
	if s.phase != phaseSent || turn != s.sentTurn {
		return false
	}
	s.phase = inStep
	return true
}

func (s *repairSlot) rewind() { s.phase = phaseRewinding }

// rewound ends a slot's rewind.
func (s *repairSlot) rewound() bool {
	if s.phase != phaseRewinding {
		return false
	}
	s.phase = inStep
	return true
}

// forget ends whatever repair the slot was in, its hashes compared again
// from turn from.
func (s *repairSlot) forget(from uint32) {
	s.phase = inStep
	s.hashFrom = max(s.hashFrom, from)
}

// worldPhase is where the world a strayed player is repaired from is:
//
//	none     ask     → asking   a voter is asked for its world at a turn ahead
//	asking   arrive  → held     the whole world came; its digest is being checked
//	held     check   → checked  a strict majority of the voters has its digest
//	checked  expire  → none     too old for the master turns kept, or sent to nobody who took it
//	asking, held  refuse → none  not the voters' world, or no answer (repairAsk): someone else is asked
type worldPhase uint8

const (
	worldNone worldPhase = iota
	worldAsking
	worldHeld
	worldChecked
)

type repairWorld struct {
	phase worldPhase
	src   int // asking, held: the slot asked
	askAt time.Duration
	turn  uint32 // the turn asked for; held, checked: the world's
	hash  uint64 // held, checked: game.Sum64 of data
	sum   wire.Sum
	data  []byte
	tried uint8 // slots whose world was refused or never came, this round
}

func (w *repairWorld) ask(src int, turn uint32, now time.Duration) {
	w.phase, w.src, w.turn, w.askAt = worldAsking, src, turn, now
}

func (w *repairWorld) arrive(data []byte, hash uint64, sum wire.Sum) bool {
	if w.phase != worldAsking {
		return false
	}
	w.phase, w.data, w.hash, w.sum = worldHeld, append(w.data[:0], data...), hash, sum
	return true
}

func (w *repairWorld) check() bool {
	if w.phase != worldHeld {
		return false
	}
	w.phase = worldChecked
	return true
}

func (w *repairWorld) refuse() {
	if (w.phase == worldAsking || w.phase == worldHeld) && w.src >= 0 {
		w.tried |= 1 << w.src
		w.phase = worldNone
	}
}

func (w *repairWorld) expire() { w.phase = worldNone }

// RepairKind says what a RepairNote reports.
type RepairKind uint8

// Repair notes.
const (
	RepairStrayed   RepairKind = iota + 1 // the player's hash differed from the majority's at Turn
	RepairDone                            // the player was repaired; Took is from its stray
	RepairRewound                         // no majority at Turn: every player rewinds
	RepairSentAway                        // the player strayed once more than the room allows, or lied again
	RepairStopped                         // the hashes split again after a rewind: the game stops (desynced)
	RepairLied                            // the world the player sent of Turn did not match its own reports
	RepairCalledOff                       // no world backed the numbers the player strayed by
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

// liedText is what a player sent away for lying is told: the world it
// sent did not match what it had reported of it.
const liedText = "your game sent a world that did not match what it reported — this can be a modified Rockstep or a fault in this computer"

// UnprovenNote is the replay's and the log's words for a game stopped
// because the hashes split again after a rewind.
const UnprovenNote = "the hashes differed again after a rewind and no player's world can be shown right: one of the computers is faulty or modified"

func (r *Room) resetRepair() {
	data := r.repair.world.data[:0]
	r.repair = repairState{}
	r.repair.world.data = data
	r.digests = [digestRing]digestRecord{}
	r.startReferee()
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
	return rs.repairing() || turn < rs.hashFrom
}

// repairingMask returns the slots whose hashes are not compared now.
func (r *Room) repairingMask() uint8 {
	var m uint8
	for i := range r.repair.slots {
		if r.repair.slots[i].repairing() {
			m |= 1 << i
		}
	}
	return m
}

// suspectMask returns the slots caught lying within repairWindow: their
// reports decide nothing.
func (r *Room) suspectMask() uint8 {
	var m uint8
	for i := range r.repair.slots {
		if timesWithin(r.repair.slots[i].lies[:], r.now) > 0 {
			m |= 1 << i
		}
	}
	return m
}

// voters returns the slots whose hashes and digests decide: live, not
// being repaired, not caught lying.
func (r *Room) voters() uint8 {
	return r.liveMask() &^ r.repairingMask() &^ r.suspectMask()
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
	if h, ok := r.refereeHash(rec.turn); ok {
		// The room's own world says who strayed: no vote, no tie.
		in := rec.mask &^ r.repairingMask() & r.liveMask()
		for i := 0; i < game.MaxPlayers; i++ {
			if in&(1<<i) != 0 && rec.hashes[i] != uint32(h) {
				r.stray(i, rec)
			}
		}
		return
	}
	v := judge(rec.mask&^r.repairingMask(), &rec.hashes, r.voters(), r.liveMask())
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
	if rs.repairing() {
		return
	}
	rs.stray(rec.turn, rec.hashes[slot], r.now)
	// Once repaired as often as the room allows, it is sent away instead
	// of repaired again (sendRepairs): judged by a world the voters'
	// digests back, not by their numbers alone.
	rs.last = timesWithin(rs.repairs[:], r.now) >= maxRepairs
	r.noteRepair(RepairNote{Kind: RepairStrayed, Slot: slot, Turn: rec.turn})
	r.recordStray(rec)
	// Its world of that turn: for the report, and to see that it backs
	// what it reported (checkStrayWorld).
	if m := r.slots[slot].m; m != nil && m.connected {
		r.repair.asm[slot].Reset()
		r.repair.asked |= 1 << slot
		r.send(m.conn, wire.SnapshotRequest{Turn: rec.turn})
	}
	r.askRepairWorld()
}

// recordStray writes the report of a stray into the replay, as a desync's
// is: the hashes of the turn (the worlds follow as they come).
func (r *Room) recordStray(rec *hashRecord) {
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
}

// checkLead is how many turns past the last compiled one the room asks
// for a world and its digests: no player has completed that turn when the
// room asks, so each computes the digest as it completes it. A request
// that arrives later (it travels on the reliable stream, the master turn
// beside it) is answered from the worlds the player keeps of its last
// turns; one that keeps none (lockstep.SharedSim's bots) answers with a
// later turn's world, and the room asks again. One turn ahead, a repair
// took 49 ms on an unimpaired link and 199 ms at a 50 ms round trip
// (BENCHMARKS.md, "Desync repair"); four turns ahead, 99 and 299 ms.
const checkLead = 1 // turns

// checkTurn returns the turn the room asks worlds and digests of now.
func (r *Room) checkTurn() uint32 { return r.nextTurn + checkLead }

// askRepairWorld asks a voter for its world at a turn ahead, and every
// player for its digest of that turn, unless a world is held or asked for
// already: any checked world repairs every strayed player, whatever turn
// it strayed at.
func (r *Room) askRepairWorld() {
	w := &r.repair.world
	if w.phase == worldChecked && (w.turn >= r.nextTurn || r.nextTurn-w.turn < masterRing/4) {
		r.sendRepairs()
		return
	}
	if data, turn, hash, ok := r.refereeWorld(); ok {
		// The room's own world: checked by construction.
		w.phase, w.src, w.turn, w.hash, w.data = worldChecked, -1, turn, hash, append(w.data[:0], data...)
		r.sendRepairs()
		return
	}
	if (w.phase == worldAsking || w.phase == worldHeld) && r.now-w.askAt < repairAsk {
		return
	}
	if w.phase == worldAsking || w.phase == worldHeld {
		// It did not answer, or not enough voters said what its world
		// should be: another voter, another turn.
		w.refuse()
	}
	src := r.repairSource()
	if src < 0 {
		r.callOff()
		return
	}
	turn := r.checkTurn()
	w.ask(src, turn, r.now)
	r.repair.asm[src].Reset()
	r.repair.asked |= 1 << src
	r.send(r.slots[src].m.conn, wire.SnapshotRequest{Turn: turn})
	r.askDigests(turn)
}

// repairSource returns the slot to ask for the world: a voter, connected
// and playing, one not tried this round first; -1 if there is none.
func (r *Room) repairSource() int {
	pick := -1
	voters := r.voters()
	for i := range r.slots {
		m := r.slots[i].m
		if voters&(1<<i) == 0 || m == nil || !m.connected || !m.started || m.needSnap {
			continue
		}
		if r.repair.world.tried&(1<<i) == 0 {
			return i
		}
		if pick < 0 {
			pick = i
		}
	}
	if pick >= 0 {
		r.repair.world.tried = 0 // everyone was tried: start again
	}
	return pick
}

// callOff ends the strays no voter is left to back: the numbers that said
// those players strayed were reported by players caught lying (or gone),
// and decide nothing. Their hashes are compared again from the next turn.
func (r *Room) callOff() {
	if r.voters()&^r.repairingMask() != 0 {
		return // a voter is there, only not asked yet (not connected, catching up)
	}
	for i := range r.repair.slots {
		rs := &r.repair.slots[i]
		if rs.phase == phaseStrayed {
			rs.forget(r.nextTurn)
			r.noteRepair(RepairNote{Kind: RepairCalledOff, Slot: i, Turn: rs.at})
		}
	}
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
		if w := &rp.world; w.phase == worldAsking && m.slot == w.src {
			w.refuse()
			r.askRepairWorld() // someone else, at once
		}
		return true
	}
	if r.rec != nil && rp.recorded&(1<<m.slot) == 0 {
		r.rec.Snapshot(m.slot, turn, data)
		rp.recorded |= 1 << m.slot
	}
	if rs := &rp.slots[m.slot]; rs.repairing() && turn == rs.at && uint32(hash) != rs.claim {
		// The world it sends of the turn it strayed at is not the one it
		// reported: its numbers lied, whatever its world is.
		r.lied(m.slot, turn)
		return true
	}
	if w := &rp.world; w.phase == worldAsking && m.slot == w.src {
		if turn != w.turn {
			w.refuse() // not the turn asked (it keeps no world of it): ask again
			r.askRepairWorld()
			return true
		}
		w.arrive(data, hash, wire.WorldSum(data))
		r.checkRepairWorld()
	}
	return true
}

// checkRepairWorld settles the world held: sent to the strayed players once
// a strict majority of the voters' digests is its own, refused (and
// another voter asked) if it is not the voters' world or contradicts its
// sender's own reports.
func (r *Room) checkRepairWorld() {
	w := &r.repair.world
	if w.phase != worldHeld {
		r.sendRepairs()
		return
	}
	switch r.judgeWorld(w.src, w.turn, w.hash, w.sum) {
	case worldAgreed:
		w.check()
		r.sendRepairs()
	case worldRefused:
		r.drop(DropSnapshot)
		w.refuse()
		r.askRepairWorld()
	case worldLie:
		src := w.src
		w.refuse()
		r.lied(src, w.turn)
		r.askRepairWorld()
	case worldForged:
		src := w.src
		w.refuse()
		r.forged(src, w.turn)
		r.askRepairWorld()
	}
}

// lied counts a lie of slot's (its world of turn did not back its
// reports): its world is refused, its reports decide nothing for
// repairWindow, and a second lie within it sends it away.
func (r *Room) lied(slot int, turn uint32) {
	rs := &r.repair.slots[slot]
	r.drop(DropSnapshot)
	r.stats.Lies++
	r.noteRepair(RepairNote{Kind: RepairLied, Slot: slot, Turn: turn})
	if timesWithin(rs.lies[:], r.now) >= maxLies-1 {
		if n, ok := r.rec.(Noter); ok {
			n.Note(RepairNoteText(slot, turn, math.MaxUint32)) // its hashes from there on are not of its world
		}
		r.sendAway(slot, liedText)
		return
	}
	noteTime(rs.lies[:], r.now)
}

// forged sends slot away at once: the world it sent of turn hashes like
// the voters' (game.Sum64) and is not theirs (wire.WorldSum). No fault
// makes that; an edit solved to pass the checksum does.
func (r *Room) forged(slot int, turn uint32) {
	r.drop(DropSnapshot)
	r.stats.Lies++
	r.noteRepair(RepairNote{Kind: RepairLied, Slot: slot, Turn: turn})
	if n, ok := r.rec.(Noter); ok {
		n.Note(RepairNoteText(slot, turn, math.MaxUint32))
	}
	r.sendAway(slot, liedText)
}

// sendRepairs sends the checked world to every strayed player that has
// not been sent one.
func (r *Room) sendRepairs() {
	w := &r.repair.world
	if w.phase != worldChecked {
		return
	}
	data := w.data
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	if total < 1 || total > wire.MaxChunks {
		return
	}
	for i := range r.repair.slots {
		rs := &r.repair.slots[i]
		m := r.slots[i].m
		if rs.phase != phaseStrayed || m == nil || !m.connected {
			continue
		}
		if rs.last {
			if n, ok := r.rec.(Noter); ok {
				n.Note(RepairNoteText(i, rs.at, math.MaxUint32)) // its last hashes, of a world that strayed
			}
			r.sendAway(i, strayedText)
			continue
		}
		rs.send(w.turn, r.now)
		r.send(m.conn, wire.Repair{Kind: wire.RepairWorld, Turn: rs.at})
		for j := 0; j < total; j++ {
			end := min((j+1)*wire.MaxChunk, len(data))
			r.send(m.conn, wire.SnapshotChunk{Turn: w.turn, Hash: w.hash, Total: uint8(total), Index: uint8(j), Data: data[j*wire.MaxChunk : end]})
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
	case rs.phase == phaseSent && rs.done(msg.Turn):
		r.inStepAgain(m.slot, rs.at, msg.Upto)
		noteTime(rs.repairs[:], r.now)
		r.stats.Repairs[m.slot]++
		r.noteRepair(RepairNote{Kind: RepairDone, Slot: m.slot, Turn: rs.at, Took: r.now - rs.since})
	case rs.phase == phaseRewinding && msg.Turn == rp.rewindTo:
		rs.rewound()
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

// rewindingMask returns the slots that have not rewound yet.
func (r *Room) rewindingMask() uint8 {
	var m uint8
	for i := range r.repair.slots {
		if r.repair.slots[i].phase == phaseRewinding {
			m |= 1 << i
		}
	}
	return m
}

// rewind makes every player restore its own world of the last turn on
// which every hash agreed, after the hashes of rec split with no majority;
// a second split soon after a rewind stops the game.
func (r *Room) rewind(rec *hashRecord) {
	rp := &r.repair
	if r.rewindingMask() != 0 {
		return // rewinding already
	}
	if rp.rewindAt != 0 && r.now-rp.rewindAt < rewindAgain {
		r.noteRepair(RepairNote{Kind: RepairStopped, Slot: -1, Turn: rec.turn})
		if n, ok := r.rec.(Noter); ok {
			n.Note(fmt.Sprintf("turn %d: %s", rec.turn, UnprovenNote))
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
	rp.rewindAt, rp.rewindTo, rp.rewindOf = max(r.now, 1), to, rec.turn
	r.noteRepair(RepairNote{Kind: RepairRewound, Slot: -1, Turn: rec.turn})
	r.recordStray(rec)
	for i := range r.slots {
		if live&(1<<i) == 0 {
			continue
		}
		r.repair.slots[i].rewind()
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
		if v := judge(rec.mask, &rec.hashes, live, live); v.majority && v.strayed == 0 {
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
	if rewinding := r.rewindingMask(); rewinding != 0 && r.now-rp.rewindAt > 3*repairAsk {
		gone := rewinding &^ r.liveMask()
		for i := range rp.slots {
			if gone&(1<<i) != 0 {
				// Away or gone: it catches up from a snapshot if it
				// comes back, and its old hashes are not compared.
				rp.slots[i].forget(r.nextTurn)
			}
		}
		if r.rewindingMask() != 0 {
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
		if rs.phase != phaseStrayed && rs.phase != phaseSent {
			continue
		}
		if s := &r.slots[i]; !s.life.staying() || s.life.away() || (s.m != nil && s.m.needSnap) {
			// Gone, or away: one that comes back catches up from a
			// checked snapshot, which repairs it; its hashes are
			// compared from the turns after it.
			rs.forget(r.nextTurn)
			continue
		}
		if rs.phase == phaseSent && r.now-rs.sentAt > 3*repairAsk {
			rs.resend() // no answer: send a newer world
			rp.world.expire()
		}
		if rs.phase == phaseStrayed {
			waiting = true
		}
	}
	if !waiting {
		return
	}
	r.checkRepairWorld()
	r.askRepairWorld()
}

// sendAway sends slot's player away with words: it strayed once more than
// the room allows, or its world did not back its reports. A master turn
// drops it (EventStrayed), as any dropped player is.
func (r *Room) sendAway(slot int, text string) {
	s := &r.slots[slot]
	if r.repair.out&(1<<slot) != 0 || !s.life.staying() {
		return // on its way out already
	}
	r.stats.SentAway++
	r.repair.out |= 1 << slot
	lies := r.repair.slots[slot].lies
	r.repair.slots[slot] = repairSlot{lies: lies}
	if r.repair.world.src == slot && r.repair.world.phase != worldChecked {
		r.repair.world.refuse()
	}
	r.noteRepair(RepairNote{Kind: RepairSentAway, Slot: slot})
	if m := s.m; m != nil {
		r.send(m.conn, wire.Leave{Reason: wire.LeaveStrayed, Text: text})
		r.onLeave(m)
		return
	}
	s.life.sendAway()
	r.statusDirty = true
	r.compile()
}
