package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// roomView is the room as this session knows it: where we sit, the setup
// and roster, the room's state, and why it sent us away if it did.
type roomView struct {
	slot     int // -1: spectator, or not yet welcomed
	token    [16]byte
	roomID   uint32
	setup    wire.SetupState
	status   wire.RoomStatus
	desync   *wire.DesyncReport
	refusal  wire.Refuse
	leave    wire.Leave
	lastJoin time.Duration
	heardAt  time.Duration // session clock: the last master packet, status or start from the room
	heard    bool          // heardAt is set
	wordAt   time.Duration // session clock: the last frame of any kind from the room (LobbySilence)
	word     bool          // wordAt is set
}

// EventKind says what an Event reports.
type EventKind uint8

// Session events, for the UI and logs.
const (
	EvWelcome  EventKind = iota + 1 // admitted; Slot is ours (-1 spectator)
	EvRefused                       // Text says why
	EvSetup                         // the setup or roster changed
	EvStarted                       // the game started (or we caught up into it)
	EvStatus                        // the room's state or child state changed
	EvDesync                        // the game stopped on a desync; Turn
	EvChat                          // Slot said Text
	EvLeft                          // the room sent us away; Text says why
	EvVacant                        // Slot lost its connection; held for a while
	EvDropped                       // Slot was dropped (gone too long)
	EvRejoined                      // Slot is back
	EvTiming                        // K and delay change at Turn
	EvPaused
	EvResumed
	EvQuit     // Slot quit the game (Text is its name)
	EvEnded    // the game ended at the end of Turn; the results are read
	EvHandover // the host is going away; the game goes on with a successor (Text: the host's words)
	EvRepaired // this player's world was out of step and was repaired, at Turn (Text: RepairedText)
)

// Event is something the UI may want to show.
type Event struct {
	Kind EventKind
	Slot int
	Turn uint32
	Text string
}

func (s *Session) emit(e Event) {
	if len(s.events) < maxEvents {
		s.events = append(s.events, e)
	}
}

// Events returns the events since the last call and forgets them.
func (s *Session) Events() []Event {
	ev := append([]Event(nil), s.events...)
	s.events = s.events[:0]
	return ev
}

// Receive handles one frame from the room.
func (s *Session) Receive(now time.Duration, frame []byte) {
	s.advance(now)
	s.stats.PacketsIn++
	s.stats.BytesIn += uint64(len(frame))
	typ, payload, err := wire.Peek(frame)
	if err != nil {
		s.stats.MalformedIn++
		return
	}
	s.room.wordAt, s.room.word = s.now, true
	if typ == wire.TypeMasterPacket {
		if err := s.mp.DecodePayload(payload); err != nil {
			s.stats.MalformedIn++
			return
		}
		s.heardNow()
		s.onMaster(&s.mp)
		return
	}
	msg, err := wire.Decode(frame)
	if err != nil {
		s.stats.MalformedIn++
		return
	}
	msg, ok := cleanText(msg)
	if !ok {
		s.stats.MalformedIn++ // a chat line of nothing visible
		return
	}
	switch m := msg.(type) {
	case wire.Welcome:
		s.onWelcome(m)
	case wire.Refuse:
		switch {
		case s.phase == Joining:
			s.phase, s.room.refusal = Refused, m
			s.emit(Event{Kind: EvRefused, Text: m.Text})
		case s.hand.migrating && (m.Reason == wire.RefuseNotHosting || m.Reason == wire.RefuseMoving || s.hand.same):
			s.hand.away = true // not where the game goes on (or, rejoining, the place is gone): the client tries again
		}
	case wire.SetupState:
		if m.Revision >= s.room.setup.Revision || m.RoomID != s.room.setup.RoomID {
			changed := m.Revision != s.room.setup.Revision
			s.lobby.setupSeen(s.room.setup, m, s.room.slot)
			s.room.setup = m
			if changed {
				s.emit(Event{Kind: EvSetup})
			}
		}
	case wire.Start:
		s.heardNow()
		s.onStart(m)
	case wire.SnapshotChunk:
		s.onChunk(m)
	case wire.SnapshotRequest:
		s.onSnapshotRequest(m.Turn)
	case wire.DigestRequest:
		s.onDigestRequest(m.Turn)
	case wire.DesyncReport:
		s.onDesyncReport(m)
	case wire.RoomStatus:
		s.heardNow()
		s.onStatus(m)
	case wire.Chat:
		s.onChat(m)
	case wire.Ping:
		s.send(wire.Pong{ID: m.ID, Time: m.Time})
	case wire.Pong:
		s.meter.pong(s.now, m)
	case wire.Leave:
		s.onLeave(m)
	case wire.Repair:
		s.onRepair(m)
	case wire.Successors:
		if m.Game == s.room.setup.Game {
			s.hand.list = m
		}
	default:
		s.stats.MalformedIn++
	}
}

// onLeave takes the room's Leave: the host going with a successor to
// follow (the game, or the lobby: lobbyhandover.go), or this player's end
// in the room.
func (s *Session) onLeave(m wire.Leave) {
	if (m.Reason == wire.LeaveHandover || m.Reason == wire.LeaveYield) && (s.phase == Playing && !s.game.ended || s.CatchingUp()) && len(s.hand.list.List) > 0 {
		// The host is going and the game goes on with a successor
		// (one still catching up from a snapshot goes too: Migrate).
		s.hand.asked, s.hand.yield = true, m.Reason == wire.LeaveYield
		s.emit(Event{Kind: EvHandover, Text: m.Text})
		return
	}
	if m.Reason == wire.LeaveHandover && s.lobbyHandedOver() {
		return // lobbyhandover.go
	}
	s.phase, s.room.leave = Left, m
	s.emit(Event{Kind: EvLeft, Text: m.Text})
}

// onDesyncReport takes the room's report of a split no repair mended:
// the game stops here, the engine blamed only if this machine cannot
// repeat its own turns.
func (s *Session) onDesyncReport(m wire.DesyncReport) {
	if s.room.desync == nil {
		rep := m
		s.room.desync = &rep
		if s.repair.rewound {
			// The split came back after a rewind: the engine is
			// blamed only if this machine cannot repeat its own turns.
			ok, _ := s.SelfCheck()
			s.repair.selfFault = !ok
		}
		s.emit(Event{Kind: EvDesync, Turn: m.Turn})
	}
}

// sendJoin repeats the Join until the room answers.
func (s *Session) sendJoin() {
	if s.now-s.room.lastJoin < s.cfg.JoinEvery {
		return
	}
	s.room.lastJoin = s.now
	j := wire.Join{RoomID: s.cfg.RoomID, PlayerID: s.cfg.PlayerID, Name: s.cfg.Name, Token: s.room.token, Spectate: s.cfg.Spectate, Rules: s.cfg.Rules}
	if j.RoomID != 0 && !s.hand.migrating {
		j.Secret = s.cfg.RoomSecret // an unlisted room's, which its server asks of every Join
	}
	if s.hand.migrating {
		j.RoomID = 0 // the successor's room is the default one of its host
		if s.hand.same {
			// The room it lost (Rejoin), with the secret the session was
			// given for it.
			j.RoomID = s.room.roomID
			switch {
			case s.hand.secret != 0:
				j.Secret = s.hand.secret
			case j.RoomID != 0 && j.RoomID == s.cfg.RoomID:
				j.Secret = s.cfg.RoomSecret
			}
		}
		if !s.hand.fresh { // else a plain rejoin: catch up from the room's snapshot
			j.Resuming, j.Resume = true, s.hand.resume
		}
	}
	s.send(j)
}

func (s *Session) onWelcome(w wire.Welcome) {
	if s.hand.migrating && s.phase == Lobby {
		s.onLobbyResumed(w)
		return
	}
	if s.hand.migrating {
		s.onResumed(w)
		s.sendStandby()
		return
	}
	if s.phase == Lobby && s.room.slot < 0 && w.Slot != wire.SpectatorSlot && w.RoomID == s.room.roomID {
		// We watched the last game and asked to play the next (SetReady):
		// the room seats us.
		s.room.slot, s.room.token = int(w.Slot), w.Token
		s.emit(Event{Kind: EvWelcome, Slot: s.room.slot})
		return
	}
	if s.phase != Joining {
		return // a repeated Welcome for a repeated Join
	}
	s.room.roomID = w.RoomID
	s.room.slot = -1
	if w.Slot != wire.SpectatorSlot {
		s.room.slot = int(w.Slot)
		s.room.token = w.Token
	}
	switch w.State {
	case wire.StateRunning:
		s.phase = Starting
	default:
		s.phase = Lobby // setup, or the last game's results: the rematch's lobby
	}
	s.emit(Event{Kind: EvWelcome, Slot: s.room.slot})
}

// onStart begins the game at turn 0, or, for FirstTurn > 0, records the
// timing that goes with the snapshot being sent.
func (s *Session) onStart(st wire.Start) {
	g := &s.game
	switch {
	case s.phase == Playing && st.FirstTurn == g.start.FirstTurn && st.Setup == g.start.Setup:
		s.sendClientPacket(false) // the room has not heard from us yet
		return
	case s.phase == Playing && (st.FirstTurn > 0 || st.Setup == g.start.Setup):
		// A snapshot offer for someone already playing, or the game's first
		// Start, late, to a player that came into it from a snapshot:
		// restarting at turn 0 would leave it waiting for turns the room no
		// longer has, and the room waiting for it.
		return
	case s.phase == Joining || s.phase == Refused || s.phase == Left:
		return
	case s.phase == Finished && st.Setup == g.start.Setup:
		return // a late repeat of the Start of the game that ended
	}
	g.start, g.haveStart = st, true
	s.room.desync = nil
	if st.FirstTurn == 0 {
		w, err := game.New(st.Setup)
		if err != nil {
			s.stats.MalformedIn++
			return
		}
		g.world = w
		s.begin()
		return
	}
	s.phase = Starting
	s.tryRestore()
}

// begin starts executing at the Start's first turn with the world in
// s.game: every part of the session starts a new game.
func (s *Session) begin() {
	st := s.game.start
	s.game.begin(st)
	s.own.begin(st.FirstTurn)
	s.clock.begin(s.now)
	s.pred.begin(st.FirstTurn)
	s.sync.count = 0      // nothing of the last game is re-simulated
	s.lobby = lobbyWish{} // wishes never outlive the game they were made for
	s.snap.want = false
	s.repair.want, s.repair.havePend, s.repair.rewound, s.repair.selfFault = false, false, false, false // repairs of the last game
	s.digest.n = 0                                                                                      // digests asked of the last game
	s.hand.history, s.hand.cut, s.hand.asked = s.hand.history[:0], false, false
	// The last game's finished status must not end this one: until the
	// room says otherwise, the game runs.
	s.room.status = wire.RoomStatus{State: wire.StateRunning, Turn: st.FirstTurn}
	s.phase = Playing
	s.emit(Event{Kind: EvStarted, Turn: st.FirstTurn})
	if s.room.slot >= 0 {
		// The turns before the first that input can reach are empty.
		target := st.FirstTurn + uint32(st.Delay)
		for s.own.next < target {
			s.queueTurn(s.own.next, nil)
		}
	}
	s.sendClientPacket(false)
	s.sendStandby()
}

func (s *Session) onStatus(m wire.RoomStatus) {
	if s.hand.asked {
		// The room handed the game over and closes: its "finished" is
		// not the game's, which goes on with a successor.
		return
	}
	old := s.room.status
	s.room.status = m
	if m.State != old.State || m.Child != old.Child || m.Lagging != old.Lagging || m.Vacant != old.Vacant || m.Slow != old.Slow {
		s.emit(Event{Kind: EvStatus})
	}
	switch {
	case m.State == wire.StateFinished && s.phase == Starting:
		s.phase = Finished // the game ended before we caught up: nothing to show
	case m.State == wire.StateFinished && s.phase == Playing:
		g := &s.game
		if !g.ended && m.End == wire.EndEmpty && g.world != nil && g.turn > m.Final {
			// Everyone left; our world is already at the room's last turn.
			s.endGame(m.Final)
		}
		if g.ended || m.End == 0 {
			s.ackEnd()
			s.phase = Finished
		}
		// Otherwise we have not reached the end yet: the room resends the
		// last turns and we finish when we get there (confirmed.go).
	case m.State == wire.StateSetup && s.phase == Playing && s.game.ended:
		// A rematch was asked before the room's "finished" reached us:
		// our game has ended all the same.
		s.ackEnd()
		s.phase = Finished
	}
	// A room back in setup (someone asked for a rematch) does not take
	// this player from the results: SetReady does, when they ask.
}

// onMaster stores the master turns of a packet.
func (s *Session) onMaster(p *wire.MasterPacket) {
	if s.phase != Playing && s.phase != Finished {
		return
	}
	s.onClientAck(p.ClientAck)
	g := &s.game
	for i := range p.Turns {
		mt := &p.Turns[i]
		if mt.Turn < g.turn || (mt.Turn == g.turn && g.tickIn > 0) {
			continue
		}
		if g.masters.store(mt, g.turn) {
			s.meter.turnArrived(s.now, &s.own, mt.Turn)
			s.clock.fed(s.now)
		}
	}
	g.masters.advanceAck(g.turn)
}
