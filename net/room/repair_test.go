package room_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// world returns a world's bytes and hash, as a player would send it.
func world(t testing.TB, seed uint64) ([]byte, uint64) {
	t.Helper()
	w, err := game.New(game.Setup{Seed: seed, Players: 0b1111, Mode: game.Coop, Lives: 3, StartWave: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data, game.Sum64(data)
}

// sendWorld sends data, the world at the end of turn, from conn in chunks.
func (b *bench) sendWorld(conn room.ConnID, turn uint32, data []byte, hash uint64) {
	b.t.Helper()
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	for i := 0; i < total; i++ {
		end := min((i+1)*wire.MaxChunk, len(data))
		b.send(conn, wire.SnapshotChunk{Turn: turn, Hash: hash, Total: uint8(total), Index: uint8(i), Data: data[i*wire.MaxChunk : end]})
	}
}

// hashes has players 1..n report hash for turn, but for the ones in odd,
// which report odd[conn].
func (b *bench) hashes(turn uint32, n int, hash uint32, odd map[room.ConnID]uint32) {
	b.t.Helper()
	for c := 1; c <= n; c++ {
		h, ok := odd[room.ConnID(c)]
		if !ok {
			h = hash
		}
		b.send(room.ConnID(c), wire.ClientPacket{HasHash: true, HashTurn: turn, HashLow: h})
	}
}

func find[T wire.Message](p *peer, ok func(T) bool) bool {
	for _, m := range p.got {
		if v, is := m.(T); is && ok(v) {
			return true
		}
	}
	return false
}

// TestStrayedPlayerRepaired: three of four players agree on turn 1, the
// fourth differs. The game does not stop nor wait; the room asks a
// majority player for its world at a turn ahead of everyone's, and every
// player for its digest of that turn; a world whose digest the majority
// does not share is refused and another player asked (its sender's own
// report of that turn was the majority's: a lie, counted); the majority's
// world goes to the strayed player, and the repair is counted when it is
// done. Its hashes are compared again from the turn after it reached.
func TestStrayedPlayerRepaired(t *testing.T) {
	var notes []room.RepairNote
	b := newBench(t, func(c *room.Config) { c.OnRepair = func(n room.RepairNote) { notes = append(notes, n) } })
	b.startGame(4)
	data, hash := world(t, 1)
	good := uint32(hash)
	b.playIdle(0, 4)
	b.hashes(0, 4, good, nil)
	b.playIdle(1, 4)
	for c := room.ConnID(1); c <= 4; c++ {
		b.peer(c).got = nil
	}
	b.hashes(1, 4, good, map[room.ConnID]uint32{4: 0xbad})
	if _, child := b.r.State(); child == wire.ChildDesynced || b.r.Desync() != nil {
		t.Fatal("a player outvoted three to one stopped the game")
	}
	ask, ok := asked[wire.SnapshotRequest](b.peer(1))
	if !ok || ask < b.r.Turn() {
		t.Fatalf("the first majority player was not asked for its world at a turn ahead (asked %v, turn %d)", ok, ask)
	}
	for c := room.ConnID(1); c <= 4; c++ {
		if d, ok := asked[wire.DigestRequest](b.peer(c)); !ok || d != ask {
			t.Fatalf("player %d was not asked for its digest of turn %d", c, ask)
		}
	}
	// The game goes on without waiting for the repair.
	b.advance(ask, 4, good, map[room.ConnID]uint32{4: 0xbad})
	if got := b.r.Turn(); got != ask+1 {
		t.Fatalf("turns compiled = %d, want %d: the majority waited", got, ask+1)
	}
	// A world that is not the majority's is refused, and another player
	// asked; its sender reported the majority's hash of that turn, so its
	// world does not back its report: a lie, counted.
	bad, _ := world(t, 2)
	b.peer(4).got = nil
	b.answer(2, claim{serves: data})
	b.answer(3, claim{serves: data})
	b.answer(1, claim{serves: bad})
	if find(b.peer(4), func(m wire.Repair) bool { return true }) {
		t.Fatal("a world whose digest is not the majority's was sent to the strayed player")
	}
	b.tick(10 * time.Millisecond)
	next, ok := asked[wire.SnapshotRequest](b.peer(2))
	if !ok {
		t.Fatal("after a refused world, the next majority player was not asked")
	}
	b.advance(next, 4, good, map[room.ConnID]uint32{4: 0xbad})
	b.answer(3, claim{serves: data})
	b.answer(2, claim{serves: data})
	if !find(b.peer(4), func(m wire.Repair) bool { return m.Kind == wire.RepairWorld && m.Turn == 1 }) {
		t.Fatal("the strayed player was not sent the repair")
	}
	if !find(b.peer(4), func(m wire.SnapshotChunk) bool { return m.Turn == next && m.Hash == hash }) {
		t.Fatal("the strayed player was not sent the majority's world")
	}
	// Its old hashes are not compared while it is repaired.
	b.advance(next+1, 4, 0x2222, map[room.ConnID]uint32{4: 0xbad2})
	b.send(4, wire.Repair{Kind: wire.RepairDone, Turn: next, Upto: next + 1})
	if got := b.r.Stats().Repairs[3]; got != 1 {
		t.Fatalf("repairs of slot 3 = %d, want 1", got)
	}
	// A stale hash of a turn it re-executed is ignored; the next is compared.
	b.hashes(next+1, 4, 0x3333, map[room.ConnID]uint32{4: 0xbad3})
	b.advance(next+3, 4, 0x4444, nil)
	if b.r.Desync() != nil || b.r.Stats().Repairs[3] != 1 {
		t.Fatalf("after the repair: desync %+v, repairs %d", b.r.Desync(), b.r.Stats().Repairs[3])
	}
	if b.r.Stats().LateTurns != 0 {
		t.Errorf("late turns = %d, want 0", b.r.Stats().LateTurns)
	}
	var kinds []room.RepairKind
	for _, n := range notes {
		kinds = append(kinds, n.Kind)
	}
	if len(kinds) != 3 || kinds[0] != room.RepairStrayed || kinds[1] != room.RepairLied || notes[1].Slot != 0 || kinds[2] != room.RepairDone || notes[2].Slot != 3 {
		t.Errorf("notes = %+v, want the stray of slot 3, the lie of slot 0 and the repair of slot 3", notes)
	}
	if st := b.r.Stats(); st.Lies != 1 || st.SentAway != 0 {
		t.Errorf("lies %d sent away %d, want 1 and 0 (a first lie is counted)", st.Lies, st.SentAway)
	}
}

// TestRepeatStrayerSentAway: a player that strays again after maxRepairs
// repairs within the window is sent away, with words, and dropped by a
// master turn (EventStrayed); the others play on.
func TestRepeatStrayerSentAway(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(3)
	data, hash := world(t, 1)
	good := uint32(hash)
	for round := 0; round < 3; round++ {
		b.peer(3).got = nil
		turn := b.r.Turn()
		b.playIdle(turn, 3)
		b.hashes(turn, 3, good, map[room.ConnID]uint32{3: 0xbad})
		ask, ok := asked[wire.SnapshotRequest](b.peer(1))
		if ok {
			b.advance(ask, 3, good, map[room.ConnID]uint32{3: 0xbad})
			b.answer(1, claim{serves: data})
			b.answer(2, claim{serves: data})
		} // else the world of an earlier round is sent again
		var from uint32
		if !find(b.peer(3), func(m wire.SnapshotChunk) bool { from = m.Turn; return true }) {
			t.Fatalf("round %d: no world sent to the strayed player", round)
		}
		b.advance(from, 3, good, map[room.ConnID]uint32{3: 0xbad})
		b.send(3, wire.Repair{Kind: wire.RepairDone, Turn: from, Upto: b.r.Turn() - 1})
		b.tick(time.Second)
	}
	if got := b.r.Stats().Repairs[2]; got != 3 {
		t.Fatalf("repairs = %d, want 3", got)
	}
	b.peer(3).got = nil
	turn := b.r.Turn()
	b.playIdle(turn, 3)
	b.hashes(turn, 3, good, map[room.ConnID]uint32{3: 0xbad})
	if !find(b.peer(3), func(m wire.Leave) bool { return m.Reason == wire.LeaveStrayed && m.Text != "" }) {
		t.Fatalf("the fourth stray did not send the player away: %v", b.peer(3).got)
	}
	b.peer(1).got = nil
	b.playIdle(turn+1, 2)
	dropped := false
	for _, mt := range masters(b.peer(1)) {
		for _, e := range mt.Events {
			dropped = dropped || (e.Kind == wire.EventStrayed && e.Slot == 2)
		}
	}
	if !dropped {
		t.Fatal("no master turn dropped the player with EventStrayed")
	}
	if b.r.Stats().SentAway != 1 || b.r.Desync() != nil {
		t.Errorf("sent away %d desync %+v, want 1 and none", b.r.Stats().SentAway, b.r.Desync())
	}
}

// TestSplitRewinds: two players differ at turn 2 with no majority: both
// are told to rewind to turn 1, the last turn they agreed on; after both
// did, agreeing hashes go on; a split again soon after stops the game.
func TestSplitRewinds(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	for turn := uint32(0); turn < 3; turn++ {
		b.playIdle(turn, 2)
	}
	b.hashes(0, 2, 0xa0, nil)
	b.hashes(1, 2, 0xa1, nil)
	b.hashes(2, 2, 0xa2, map[room.ConnID]uint32{2: 0xbad})
	for c := room.ConnID(1); c <= 2; c++ {
		if !find(b.peer(c), func(m wire.Repair) bool { return m.Kind == wire.RepairRewind && m.Turn == 1 && m.Upto == 2 }) {
			t.Fatalf("player %d was not told to rewind to turn 1: %v", c, b.peer(c).got)
		}
		b.send(c, wire.Repair{Kind: wire.RepairDone, Turn: 1, Upto: 2})
	}
	if b.r.Desync() != nil {
		t.Fatal("a split stopped the game before a rewind")
	}
	b.playIdle(3, 2)
	b.hashes(3, 2, 0xa3, nil)
	b.playIdle(4, 2)
	b.hashes(4, 2, 0xa4, map[room.ConnID]uint32{2: 0xbad})
	if d := b.r.Desync(); d == nil || d.Turn != 4 {
		t.Fatalf("desync = %+v, want turn 4: the hashes split again after a rewind", d)
	}
}

// TestRepairWorldWaitsForDigestsOnlySoLong: a world held while a voter
// never sends its digest is given up after a while, and another voter is
// asked for a world of a later turn; with the digests in, the repair goes.
func TestRepairWorldWaitsForDigestsOnlySoLong(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(4)
	data, hash := world(t, 1)
	good := uint32(hash)
	b.advance(1, 4, good, nil)
	b.playIdle(2, 4)
	b.hashes(2, 4, good, map[room.ConnID]uint32{4: 0xbad})
	ask, _ := asked[wire.SnapshotRequest](b.peer(1))
	b.advance(ask, 4, good, map[room.ConnID]uint32{4: 0xbad})
	b.answer(1, claim{serves: data}) // the others are silent: 1 of 3 voters
	b.peer(2).got, b.peer(3).got = nil, nil
	for i := 0; i < 30 && !find(b.peer(2), func(m wire.SnapshotRequest) bool { return true }); i++ {
		b.tick(100 * time.Millisecond)
	}
	next, ok := asked[wire.SnapshotRequest](b.peer(2))
	if !ok || next <= ask {
		t.Fatalf("no other voter asked for a later world after the digests did not come (asked %v, turn %d)", ok, next)
	}
	b.advance(next, 4, good, map[room.ConnID]uint32{4: 0xbad})
	b.answer(3, claim{serves: data})
	b.answer(2, claim{serves: data})
	if !find(b.peer(4), func(m wire.Repair) bool { return m.Kind == wire.RepairWorld }) {
		t.Fatal("the strayed player was not repaired once the digests came")
	}
}

// TestRepeatStrayerJudgedByAWorld: a player repaired as often as the room
// allows strays again, but by numbers that no world backs: the voters the
// room asks for a world each send one that does not match what they
// reported. It is not sent away (the stray is called off); the liars are
// counted.
func TestRepeatStrayerJudgedByAWorld(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(3)
	data, hash := world(t, 1)
	good := uint32(hash)
	for round := 0; round < 3; round++ {
		turn := b.r.Turn()
		b.playIdle(turn, 3)
		b.hashes(turn, 3, good, map[room.ConnID]uint32{3: 0xbad})
		if ask, ok := asked[wire.SnapshotRequest](b.peer(1)); ok {
			b.advance(ask, 3, good, map[room.ConnID]uint32{3: 0xbad})
			b.answer(1, claim{serves: data})
			b.answer(2, claim{serves: data})
		}
		var from uint32
		if !find(b.peer(3), func(m wire.SnapshotChunk) bool { from = m.Turn; return true }) {
			t.Fatalf("round %d: no world sent to the strayed player", round)
		}
		b.advance(from, 3, good, map[room.ConnID]uint32{3: 0xbad})
		b.send(3, wire.Repair{Kind: wire.RepairDone, Turn: from, Upto: b.r.Turn() - 1})
		b.peer(1).got, b.peer(2).got, b.peer(3).got = nil, nil, nil
		b.tick(time.Second)
	}
	b.advance(b.r.Turn()+140, 3, good, nil) // the checked world grows too old to send (masterRing/4 turns)
	for c := room.ConnID(1); c <= 3; c++ {
		b.peer(c).got = nil
	}
	turn := b.r.Turn()
	b.playIdle(turn, 3)
	b.hashes(turn, 3, good, map[room.ConnID]uint32{3: 0xbad})
	bad, _ := world(t, 2) // not what they reported
	for i := 0; i < 4 && !sentAway(b.peer(3)); i++ {
		for _, c := range []room.ConnID{1, 2} {
			if ask, ok := asked[wire.SnapshotRequest](b.peer(c)); ok {
				b.advance(ask, 3, good, map[room.ConnID]uint32{3: 0xbad})
				b.answer(c, claim{serves: bad})
			}
		}
		b.tick(10 * time.Millisecond)
	}
	if sentAway(b.peer(3)) {
		t.Fatal("the strayed player was sent away by numbers no world backed")
	}
	if st := b.r.Stats(); st.Lies != 2 || st.SentAway != 0 {
		t.Errorf("lies %d sent away %d, want 2 and 0", st.Lies, st.SentAway)
	}
}
