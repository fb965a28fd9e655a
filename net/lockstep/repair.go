package lockstep

import (
	"fmt"
	"strconv"
	"strings"

	"rockstep/game"
	"rockstep/net/wire"
)

// Desync repair, the session's side (docs/ARCHITECTURE.md §1, "Desync
// repair"). When this player's hash differed from a majority's, the room
// sends a majority player's world (wire.RepairWorld, then the chunks): the
// session restores it and executes again the master turns after it that
// it already holds (or, if the world is of a turn it has not completed
// yet, takes it in when it completes that turn). When no majority agreed,
// the room asks every player to restore its own world of the last turn
// every hash agreed on (wire.RepairRewind), kept in the recent worlds. In
// both cases the session says so (wire.RepairDone) and the UI is told
// (EvRepaired); nothing else changes: its own turns, the schedule and the
// prediction go on.

// RepairedText is what a player whose world was repaired is shown.
const RepairedText = "your game was out of step with the others and has been repaired"

// UnprovenText says why a game of two stopped whose hashes differed again
// after every player rewound to where they agreed: the room runs no engine,
// so it cannot show whose world is right, and this machine's own
// re-simulation (SelfCheck) agrees with itself. UnprovenManyText says it
// for more players.
const (
	UnprovenText     = "your games disagree and neither can be shown right: one of the two computers is faulty or modified"
	UnprovenManyText = "your games disagree and no side can be shown right: some of these computers are faulty or modified"
)

// NotDeterministicText says why a game stopped whose hashes differed again
// after a rewind when this machine's own re-simulation of its last turns
// gave another world than it had (SelfCheck): only then is this computer's
// engine shown not to be deterministic.
const NotDeterministicText = "this computer ran the same turns twice and got two different worlds: its game engine is not deterministic here"

// StrayedText is what the others are shown of a player sent away because
// its world kept disagreeing with theirs (after its name).
const StrayedText = "was sent away: their game kept disagreeing with everyone else's"

// repairIO is a repair under way.
type repairIO struct {
	want     bool // the room announced a majority world: chunks in Playing are its
	asm      wire.Assembly
	pending  game.World // a majority world of a turn not completed yet
	pendAt   uint32
	havePend bool
	rewound  bool // this game rewound (reset when a game begins)
	// selfFault: when the game stopped after a rewind, this session's
	// re-simulation of its kept turns disagreed with its own worlds.
	selfFault bool
}

// Rewound reports whether every player rewound in this game (no majority
// agreed on a turn's hash): a desync after that is a split nobody can
// settle (StoppedText).
func (s *Session) Rewound() bool { return s.repair.rewound }

// StoppedText says why the game stopped on a desync after every player
// rewound: UnprovenText (or UnprovenManyText, for more than two players)
// unless this machine's own re-simulation of its last turns showed its
// engine to give another world than it had (NotDeterministicText). ""
// before such a stop.
func (s *Session) StoppedText() string {
	d := s.room.desync
	if d == nil || !s.repair.rewound {
		return ""
	}
	if s.repair.selfFault {
		return NotDeterministicText
	}
	if len(d.Entries) > 2 {
		return UnprovenManyText
	}
	return UnprovenText
}

// SelfCheck executes again, from the oldest world it keeps, the master
// turns it still holds up to the newest world it keeps, and reports
// whether every kept world came out the same (checked: how many turns it
// compared). A machine whose engine gives two results for the same turns
// fails it; one whose world was made to disagree by a fault after a turn
// (Fault.FlipAt) does too.
func (s *Session) SelfCheck() (ok bool, checked int) {
	g := &s.game
	n := uint32(len(g.recent))
	if n == 0 || g.world == nil {
		return true, 0
	}
	from, found := uint32(0), false
	for i := range g.recent {
		r := &g.recent[i]
		if r.ok && (!found || r.turn < from) {
			from, found = r.turn, true
		}
	}
	if !found {
		return true, 0
	}
	w := g.recent[from%n].w
	var in [game.MaxPlayers]game.Input
	for t := from + 1; t < g.turn; t++ {
		mt, held := g.masters.get(t)
		if !held {
			break
		}
		for k := 0; k < int(mt.Count); k++ {
			for i := range in {
				in[i] = mt.Inputs[i][k]
			}
			w.Step(in)
		}
		w.NumEvents = 0
		if r := &g.recent[t%n]; r.ok && r.turn == t {
			checked++
			if w.Hash() != r.w.Hash() {
				return false, checked
			}
		}
	}
	return true, checked
}

func (s *Session) onRepair(m wire.Repair) {
	g := &s.game
	if s.phase != Playing || g.world == nil || g.ended || s.room.slot < 0 {
		return
	}
	switch m.Kind {
	case wire.RepairWorld:
		s.repair.want = true
		s.repair.asm.Reset()
	case wire.RepairRewind:
		n := uint32(len(g.recent))
		if n == 0 {
			return
		}
		r := &g.recent[m.Turn%n]
		if !r.ok || r.turn != m.Turn || m.Turn >= g.turn {
			return // not kept: the room stops the game when nobody answers
		}
		w := r.w
		if s.restore(&w, m.Turn) {
			s.stats.Rewinds++
			s.repair.rewound = true
			s.emit(Event{Kind: EvRepaired, Turn: m.Turn, Text: RepairedText})
		}
	default:
		s.stats.MalformedIn++
	}
}

// onRepairChunk assembles the majority's world and restores it.
func (s *Session) onRepairChunk(c wire.SnapshotChunk) {
	data, turn, hash := s.repair.asm.Add(c)
	if data == nil {
		return
	}
	s.repair.want = false
	if game.Sum64(data) != hash {
		s.stats.MalformedIn++
		return
	}
	w := &s.repair.pending
	if err := w.UnmarshalBinary(data); err != nil {
		s.stats.MalformedIn++
		return
	}
	if turn >= s.game.turn {
		// A turn this player has not completed yet: taken in as it does
		// (completeTurn), in place of its own world there.
		s.repair.pendAt, s.repair.havePend = turn, true
		return
	}
	if s.restore(w, turn) {
		s.stats.Repairs++
		s.emit(Event{Kind: EvRepaired, Turn: turn, Text: RepairedText})
	}
}

// takePending puts the majority's world of turn c in place of the world
// just completed there; it reports whether it did.
func (s *Session) takePending(c uint32) bool {
	if !s.repair.havePend || s.repair.pendAt != c {
		return false
	}
	s.repair.havePend = false
	*s.game.world = s.repair.pending
	s.pred.ok = false
	s.sync.count = 0
	s.stats.Repairs++
	s.emit(Event{Kind: EvRepaired, Turn: c, Text: RepairedText})
	return true
}

// restore makes w, the world at the end of turn, the confirmed world, and
// executes again the master turns after it up to where execution stands
// (the ticks of the turn in progress too). It reports false, changing
// nothing, if a master turn it needs is no longer held. The hashes of the
// turns executed again replace those kept; the room is told.
func (s *Session) restore(w *game.World, turn uint32) bool {
	g := &s.game
	if turn >= g.turn {
		return false
	}
	for t := turn + 1; t <= g.turn; t++ {
		if t == g.turn && g.tickIn == 0 {
			break
		}
		if _, ok := g.masters.get(t); !ok {
			return false
		}
	}
	*g.world = *w
	g.world.NumEvents = 0
	s.keepRecent(turn)
	var in [game.MaxPlayers]game.Input
	for t := turn + 1; t <= g.turn; t++ {
		ticks := g.tickIn
		if t < g.turn {
			ticks = -1 // the whole turn
		}
		if ticks == 0 {
			break
		}
		mt, _ := g.masters.get(t)
		if ticks < 0 {
			ticks = int(mt.Count)
		}
		for k := 0; k < ticks; k++ {
			for i := range in {
				in[i] = mt.Inputs[i][k]
			}
			g.world.Step(in)
		}
		g.world.NumEvents = 0 // their events were shown when first executed
		g.lastIn = in
		if t < g.turn {
			s.keepRecent(t)
			if t == g.turn-1 {
				g.hashTurn, g.hashLow, g.hasHash = t, s.reportedHash(g.world.Hash()), true
			}
		}
	}
	if turn == g.turn-1 {
		g.hashTurn, g.hashLow, g.hasHash = turn, s.reportedHash(w.Hash()), true
	}
	s.pred.ok = false // the displayed world is rebuilt from the repaired one
	s.sync.count = 0  // the sync test's ticks were of the world before
	s.send(wire.Repair{Kind: wire.RepairDone, Turn: turn, Upto: g.turn - 1})
	s.sendClientPacket(false)
	return true
}

// keepRecent keeps the confirmed world as the world at the end of turn c.
func (s *Session) keepRecent(c uint32) {
	g := &s.game
	if n := len(g.recent); n > 0 {
		r := &g.recent[c%uint32(n)]
		r.turn, r.ok, r.w = c, true, *g.world
		r.w.NumEvents = 0
	}
}

// Fault is a deliberate fault, for tests and for seeing repairs work
// (`-fault`): never set in a real game.
type Fault struct {
	// FlipAt, if not 0, changes one field of the confirmed world (the first
	// ship's score) once, after confirmed tick FlipAt: the world strays.
	FlipAt uint32
	// HashFrom, if not 0, makes every hash reported wrong from confirmed
	// tick HashFrom on, the world itself untouched: a lying player.
	HashFrom uint32
}

// ParseFault parses a fault: "flip@TICK", "hash@TICK", or both separated
// by a comma.
func ParseFault(spec string) (Fault, error) {
	var f Fault
	for _, part := range strings.Split(spec, ",") {
		kind, at, ok := strings.Cut(strings.TrimSpace(part), "@")
		if !ok {
			return Fault{}, fmt.Errorf("fault %q: want flip@TICK or hash@TICK", part)
		}
		tick, err := strconv.ParseUint(at, 10, 32)
		if err != nil || tick == 0 {
			return Fault{}, fmt.Errorf("fault %q: the tick must be a positive number", part)
		}
		switch kind {
		case "flip":
			f.FlipAt = uint32(tick)
		case "hash":
			f.HashFrom = uint32(tick)
		default:
			return Fault{}, fmt.Errorf("fault %q: want flip@TICK or hash@TICK", part)
		}
	}
	return f, nil
}

// injectFault applies the configured flip once its tick is passed.
func (s *Session) injectFault() {
	f := s.cfg.Fault.FlipAt
	if f == 0 || s.faulted || s.game.world.Tick < f {
		return
	}
	s.faulted = true
	s.game.world.Ships[0].Score ^= 1
}

// reportedHash is the low half of h as reported: wrong on purpose under a
// hash fault.
func (s *Session) reportedHash(h uint64) uint32 {
	if f := s.cfg.Fault.HashFrom; f != 0 && s.game.world.Tick >= f {
		return uint32(h) ^ 0x5eed
	}
	return uint32(h)
}
