package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

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
	EvDropped                       // Slot was dropped
	EvRejoined                      // Slot is back
	EvTiming                        // K and delay change at Turn
	EvPaused
	EvResumed
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
	if typ == wire.TypeMasterPacket {
		if err := s.mp.DecodePayload(payload); err != nil {
			s.stats.MalformedIn++
			return
		}
		s.onMaster(&s.mp)
		return
	}
	msg, err := wire.Decode(frame)
	if err != nil {
		s.stats.MalformedIn++
		return
	}
	switch m := msg.(type) {
	case wire.Welcome:
		s.onWelcome(m)
	case wire.Refuse:
		if s.phase == Joining {
			s.phase, s.refusal = Refused, m
			s.emit(Event{Kind: EvRefused, Text: m.Text})
		}
	case wire.SetupState:
		if m.Revision >= s.setup.Revision || m.RoomID != s.setup.RoomID {
			changed := m.Revision != s.setup.Revision
			s.setup = m
			if changed {
				s.emit(Event{Kind: EvSetup})
			}
		}
	case wire.Start:
		s.onStart(m)
	case wire.SnapshotChunk:
		s.onChunk(m)
	case wire.SnapshotRequest:
		s.onSnapshotRequest(m.Turn)
	case wire.DesyncReport:
		if s.desync == nil {
			rep := m
			s.desync = &rep
			s.emit(Event{Kind: EvDesync, Turn: m.Turn})
		}
	case wire.RoomStatus:
		s.onStatus(m)
	case wire.Chat:
		if len(s.chat) >= maxChat {
			copy(s.chat, s.chat[1:])
			s.chat = s.chat[:len(s.chat)-1]
		}
		s.chat = append(s.chat, m)
		s.emit(Event{Kind: EvChat, Slot: int(m.From), Text: m.Text})
	case wire.Ping:
		s.send(wire.Pong{ID: m.ID, Time: m.Time})
	case wire.Pong:
		s.onPong(m)
	case wire.Leave:
		s.phase, s.leave = Left, m
		s.emit(Event{Kind: EvLeft, Text: m.Text})
	default:
		s.stats.MalformedIn++
	}
}

func (s *Session) advance(now time.Duration) {
	if now > s.now {
		s.now = now
	}
}

func (s *Session) onWelcome(w wire.Welcome) {
	if s.phase != Joining {
		return // a repeated Welcome for a repeated Join
	}
	s.roomID = w.RoomID
	s.slot = -1
	if w.Slot != wire.SpectatorSlot {
		s.slot = int(w.Slot)
		s.token = w.Token
	}
	switch w.State {
	case wire.StateRunning:
		s.phase = Starting
	default:
		s.phase = Lobby
	}
	s.emit(Event{Kind: EvWelcome, Slot: s.slot})
}

// onStart begins the game at turn 0, or, for FirstTurn > 0, records the
// timing that goes with the snapshot being sent.
func (s *Session) onStart(st wire.Start) {
	switch {
	case s.phase == Playing && st.FirstTurn == s.start.FirstTurn && st.Setup == s.start.Setup:
		s.sendClientPacket(false) // the room has not heard from us yet
		return
	case s.phase == Playing && st.FirstTurn > 0:
		return // a snapshot offer for someone already playing
	case s.phase == Joining || s.phase == Refused || s.phase == Left:
		return
	}
	s.start, s.haveSt = st, true
	s.desync = nil
	if st.FirstTurn == 0 {
		w, err := game.New(st.Setup)
		if err != nil {
			s.stats.MalformedIn++
			return
		}
		s.world = w
		s.begin()
		return
	}
	s.phase = Starting
	s.tryRestore()
}

// begin starts executing at s.start.FirstTurn with s.world.
func (s *Session) begin() {
	st := s.start
	s.cur = timing{at: st.FirstTurn, k: st.K, delay: st.Delay}
	s.hasPend = st.ChangeAt > st.FirstTurn
	if s.hasPend {
		s.pending = timing{at: st.ChangeAt, k: st.ChangeK, delay: st.ChangeDelay}
	}
	s.execTurn, s.tickIn = st.FirstTurn, 0
	s.haveM = [masterRing]bool{}
	s.mAck = st.FirstTurn
	s.nextSend, s.cAck = st.FirstTurn, st.FirstTurn
	s.lastIn = 0
	s.clock, s.ticksRun = s.now, 0
	s.lturn, s.lidx, s.sampled = st.FirstTurn, 0, 0
	s.predOK, s.predTicks = false, 0
	s.lastConf = [game.MaxPlayers]game.Input{}
	s.stalled = false
	s.phase = Playing
	s.snapWant = false
	s.emit(Event{Kind: EvStarted, Turn: st.FirstTurn})
	if s.slot >= 0 {
		// The turns before the first that input can reach are empty.
		target := st.FirstTurn + uint32(st.Delay)
		for s.nextSend < target {
			s.queueTurn(s.nextSend, nil)
		}
	}
	s.sendClientPacket(false)
}

func (s *Session) onStatus(m wire.RoomStatus) {
	old := s.status
	s.status = m
	if m.State != old.State || m.Child != old.Child || m.Lagging != old.Lagging || m.Vacant != old.Vacant {
		s.emit(Event{Kind: EvStatus})
	}
	if m.State == wire.StateFinished && (s.phase == Playing || s.phase == Starting) {
		s.phase = Finished
	}
	if m.State == wire.StateSetup && s.phase == Finished {
		s.phase = Lobby
	}
}

func (s *Session) onPong(p wire.Pong) {
	rtt := s.now - time.Duration(p.Time)*time.Microsecond
	if rtt < 0 || rtt > time.Minute {
		return
	}
	if s.rttSmooth == 0 {
		s.rttSmooth = rtt
	} else {
		s.rttSmooth += (rtt - s.rttSmooth) / 8
	}
	s.rttWin[s.rttIdx%len(s.rttWin)] = rtt
	s.rttIdx++
}

func (s *Session) onMaster(p *wire.MasterPacket) {
	if s.phase != Playing && s.phase != Finished {
		return
	}
	if p.ClientAck > s.cAck {
		// Beyond nextSend when the room compiled turns without us (after a
		// reconnect): those turns are done and must not be sent.
		s.cAck = p.ClientAck
	}
	for i := range p.Turns {
		mt := &p.Turns[i]
		if mt.Turn < s.execTurn || (mt.Turn == s.execTurn && s.tickIn > 0) || mt.Turn >= s.execTurn+masterRing {
			continue
		}
		j := mt.Turn % masterRing
		if s.haveM[j] && s.masters[j].Turn == mt.Turn {
			continue
		}
		dst := &s.masters[j]
		dst.Turn, dst.Count, dst.Players, dst.Inputs = mt.Turn, mt.Count, mt.Players, mt.Inputs
		dst.Events = append(dst.Events[:0], mt.Events...)
		s.haveM[j] = true
	}
	if s.mAck < s.execTurn {
		s.mAck = s.execTurn
	}
	for s.mAck < s.execTurn+masterRing && s.hasMaster(s.mAck) {
		s.mAck++
	}
}

func (s *Session) hasMaster(t uint32) bool {
	j := t % masterRing
	return s.haveM[j] && s.masters[j].Turn == t
}

// onSnapshotRequest sends the world at the end of turn: from the recent
// worlds kept (after a desync the room wants exactly the diverging turn),
// now if that turn is the last one completed, or when it is completed.
func (s *Session) onSnapshotRequest(turn uint32) {
	if s.world == nil {
		return
	}
	if n := len(s.recent); n > 0 {
		if r := &s.recent[turn%uint32(n)]; r.ok && r.turn == turn {
			s.sendWorld(&r.w, turn)
			return
		}
	}
	s.snapWant, s.snapTurn = true, turn
	if s.phase == Playing && s.tickIn == 0 && s.execTurn > 0 && s.execTurn-1 >= turn {
		s.sendSnapshot(s.execTurn - 1)
	}
}
