package lockstep

import (
	"math/bits"
	"strconv"
	"strings"

	"rockstep/game"
	"rockstep/net/wire"
)

// Host migration, the session's side. The room names the successors
// (Successors); when it falls silent or says it is going (HandoverAsked),
// the client picks the first live successor, and this session either
// hosts the game from its own world (State) or joins the successor's room
// where its game stands (Migrate): the turns it already holds are kept,
// the room sends the ones it lacks, and only a player whose game ran past
// the successor's restarts from a snapshot.

// maxHistory bounds the master turns a session keeps for a handover's
// replay: two and a half hours at 30 turns a second.
const maxHistory = 1 << 18

// handoverView is what the session knows about the game's succession.
type handoverView struct {
	list      wire.Successors
	asked     bool   // the room said it is going: go to the first successor
	yield     bool   // ... and the turns it compiled are not the successor's: catch up from its snapshot
	migrating bool   // sending a resuming Join to a successor's room
	fresh     bool   // ... as a plain rejoin: its world is not the room's (LeaveYield)
	same      bool   // ... to the room it lost, named, with its secret (Rejoin); any refusal turns it away
	secret    uint64 // ... that room's secret, given by the caller (0: the configured room's, if it is that one)
	away      bool   // ... and that player does not host: it still plays under a host, or is on its way to another (RefuseNotHosting, RefuseMoving)
	resume    uint32
	history   []wire.MasterTurn // every master turn executed, if Config.KeepHistory
	cut       bool              // history passed maxHistory and stopped
}

// keep records mt in the history, if the session keeps one.
func (h *handoverView) keep(mt *wire.MasterTurn) {
	if len(h.history) >= maxHistory {
		h.cut = true
		return
	}
	c := *mt
	c.Events = append([]wire.RoomEvent(nil), mt.Events...)
	h.history = append(h.history, c)
}

// Successors returns the room's latest list of successors.
func (s *Session) Successors() wire.Successors { return s.hand.list }

// HandoverAsked reports whether the room said it is going away while the
// game runs, for the game to go on with the first successor.
func (s *Session) HandoverAsked() bool { return s.hand.asked }

// Migrating reports whether the session is joining a successor's room.
func (s *Session) Migrating() bool { return s.hand.migrating }

// TurnedAway reports whether the successor the session is joining said it
// does not host the game (it still plays under a host): the client tries
// the successors again, and calls Migrate once it has moved.
func (s *Session) TurnedAway() bool { return s.hand.migrating && s.hand.away }

// State is what a successor's room needs from this session to carry the
// game on: the game, its setup and cast, the turn it resumes at with the
// timing then, and the master turns before it.
type State struct {
	Game     uint32
	Room     string // the room's name
	Revision uint32
	Setup    game.Setup
	Names    [game.MaxPlayers]string
	Roster   []wire.Player
	Slot     int
	Token    [16]byte
	// Next is the first turn this session has not begun to execute.
	Next                   uint32
	K, Delay               uint8
	PendingAt              uint32
	PendingK, PendingDelay uint8
	History                []wire.MasterTurn // oldest first; empty without Config.KeepHistory
	HistoryCut             bool              // the history is not the whole game
	Successors             wire.Successors
}

// State returns what a successor's room needs; ok is false unless a game
// is being played here.
func (s *Session) State() (st State, ok bool) {
	g := &s.game
	if s.phase != Playing || g.world == nil || g.ended || s.room.slot < 0 {
		return State{}, false
	}
	next := s.resumePoint()
	cur := g.timing.at(next)
	st = State{
		Game: s.room.setup.Game, Room: s.room.setup.Name, Revision: s.room.setup.Revision,
		Setup: g.start.Setup, Names: g.names, Roster: append([]wire.Player(nil), s.room.setup.Players...),
		Slot: s.room.slot, Token: s.room.token,
		Next: next, K: cur.k, Delay: cur.delay,
		History: s.hand.history, HistoryCut: s.hand.cut || g.start.FirstTurn > 0,
		Successors: s.hand.list,
	}
	if g.timing.hasPending && g.timing.pending.at > next {
		st.PendingAt, st.PendingK, st.PendingDelay = g.timing.pending.at, g.timing.pending.k, g.timing.pending.delay
	}
	return st, true
}

// resumePoint is the first turn this session has not begun to execute.
func (s *Session) resumePoint() uint32 {
	g := &s.game
	if g.tickIn > 0 {
		return g.turn + 1
	}
	return g.turn
}

// Migrate makes the session join a successor's room (the caller has moved
// the transport there): it sends a resuming Join with its token until the
// room answers, forgets the master turns it holds but has not begun (the
// new room compiles its own from its first turn on, and sends again the
// ones before it), and will send the room every own turn it has not seen
// executed. It reports false, doing nothing, if there is no game to carry
// on here. Called again while migrating (the first successor tried turned
// the session away), it joins the next room the same way.
//
// A session still catching up (Starting: back in a running game with its
// token, waiting for the room's snapshot) has no world to resume from: it
// joins the successor's room as a plain rejoin with its token, to catch up
// from that room's snapshot instead (CatchingUp).
func (s *Session) Migrate() bool { return s.migrate(false) }

// Rejoin makes the session join again the room whose connection was lost
// (the caller dialled the same host again: only this player's link had
// failed, and the room holds its place): as Migrate, but the Join names
// that room (the id its Welcome gave, with the secret the session was
// given for it), and any refusal turns the session away (TurnedAway):
// the room gave the place up, or is gone. The room takes the player back
// with its token, from a snapshot unless it is a successor's room that
// can resume it in place. secret is the lost room's secret when the
// caller knows it (a room a game moved to on a server: net/client's
// ServerRoom); 0 uses the configured one if the room is the configured
// room.
func (s *Session) Rejoin(secret uint64) bool {
	s.hand.secret = secret
	return s.migrate(true)
}

// migrate is Migrate, or Rejoin for same.
func (s *Session) migrate(same bool) bool {
	s.hand.same = same
	if s.phase == Lobby {
		return s.migrateLobby()
	}
	g := &s.game
	if s.CatchingUp() {
		s.hand.asked, s.hand.migrating, s.hand.away = false, true, false
		s.hand.fresh, s.hand.yield = true, false
		g.haveStart, s.snap.have = false, false // the old room's: the new one sends its own
		s.room.lastJoin = -1 << 62              // at once
		s.room.desync = nil
		s.sendJoin()
		return true
	}
	if s.phase != Playing || g.world == nil || g.ended || s.room.slot < 0 {
		return false
	}
	resume := s.resumePoint()
	for t := resume; t < g.masters.ack; t++ {
		g.masters.release(t)
	}
	g.masters.ack = resume
	if g.tickIn > 0 {
		g.masters.ack = g.turn + 1 // the turn being executed stays
	}
	// Own turns the old room acknowledged but the new one has never seen.
	o := &s.own
	o.ack = min(o.ack, resume)
	if o.next > o.ack && o.next-o.ack > sentRing {
		o.ack = o.next - sentRing
	}
	fresh := s.hand.yield || (s.hand.migrating && s.hand.fresh)
	s.hand.asked, s.hand.migrating, s.hand.resume, s.hand.away = false, true, resume, false
	s.hand.fresh, s.hand.yield = fresh, false
	s.room.lastJoin = -1 << 62 // at once
	s.room.desync = nil
	s.sendJoin()
	return true
}

// CatchingUp reports whether the session is a player's in a running game
// that waits for the room's snapshot to catch up from (a rejoin, or a move
// that restarts from the successor's world): it has no world yet, but a
// place in the game, which a host's death must not cost it (Migrate).
func (s *Session) CatchingUp() bool {
	return s.phase == Starting && s.room.slot >= 0 && !s.game.ended
}

// onResumed handles the successor room's Welcome while migrating: in
// place, the game goes on; otherwise it restarts from the snapshot the
// room will send.
func (s *Session) onResumed(w wire.Welcome) {
	s.hand.migrating, s.hand.fresh = false, false
	s.room.roomID = w.RoomID
	if w.Resumed {
		s.emit(Event{Kind: EvWelcome, Slot: s.room.slot})
		s.sendClientPacket(false)
		return
	}
	s.game.haveStart = false
	s.game.masters.reset(s.resumePoint())
	s.phase = Starting
	s.emit(Event{Kind: EvWelcome, Slot: s.room.slot})
}

// SetStandby tells the room where this player would host the game if the
// host went away (sent now if a game runs, and again to every new room).
func (s *Session) SetStandby(sb wire.Standby) {
	if s.haveStandby && s.standby == sb {
		return
	}
	s.standby, s.haveStandby = sb, true
	s.sendStandby()
}

func (s *Session) sendStandby() {
	if s.haveStandby && (s.phase == Playing || s.phase == Lobby) && s.room.slot >= 0 && !s.hand.migrating {
		s.send(s.standby)
	}
}

// Elect returns the index in list of the successor the player in slot
// self goes to when the host is gone: the first that is itself or that
// it reaches (reaches is asked in list order, and only as far as needed);
// -1 if none. Every player walks the same list in the same order, so
// players that reach the same successors meet at the same one.
func Elect(list []wire.Successor, self int, reaches func(wire.Successor) bool) int {
	for i, c := range list {
		if int(c.Slot) == self || reaches(c) {
			return i
		}
	}
	return -1
}

// Apart reports whether the room holds the game for want of a majority:
// half of its members or more are held vacant (lost contact), so the game
// waits, counting them down, rather than play on as one side of a group
// cut apart (docs/ARCHITECTURE.md, "When the host goes away"). absent are
// their slots. Members are the roster's players in a running game (one
// gone by choice has left the roster, or is no longer held vacant).
func (s *Session) Apart() (absent uint8, apart bool) {
	st := s.room.status
	if s.phase != Playing || st.State != wire.StateRunning || st.Vacant == 0 {
		return 0, false
	}
	var members uint8
	for _, p := range s.room.setup.Players {
		if p.Slot < game.MaxPlayers {
			members |= 1 << p.Slot
		}
	}
	absent = st.Vacant & members
	n, away := bits.OnesCount8(members), bits.OnesCount8(absent)
	return absent, absent != 0 && 2*(n-away) <= n
}

// ApartText is what a player on a side without a majority reads while
// the game waits for the others: "lost contact with Bea and Cy: waiting
// 30 s for them". names are the absent players' names, secs the seconds
// left of their countdown.
func ApartText(names []string, secs int) string {
	who := "the others"
	switch n := len(names); {
	case n == 1:
		who = names[0]
	case n > 1:
		who = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return "lost contact with " + who + ": waiting " + strconv.Itoa(max(secs, 0)) + " s for them"
}
