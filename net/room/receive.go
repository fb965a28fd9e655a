package room

import (
	"time"

	"rockstep/internal/peertext"
	"rockstep/net/wire"
)

// Receive handles one frame that arrived on conn at now. A frame that does
// not decode, or is not valid from this sender in this state, is dropped and
// counted; nothing a peer sends can make the room panic or grow unbounded.
func (r *Room) Receive(now time.Duration, conn ConnID, frame []byte) {
	r.advance(now)
	r.stats.FramesIn++
	r.stats.BytesIn += uint64(len(frame))
	typ, payload, err := wire.Peek(frame)
	if err != nil {
		r.drop(DropMalformed)
		return
	}
	m := r.conns[conn]
	if m != nil {
		if !r.allowRate(m) {
			r.drop(DropRate)
			return
		}
		m.heard = now
		r.heardStalled(m)
		if !m.connected {
			r.drop(DropNotMember)
			return
		}
	}
	// The hot path: a player's turn inputs, decoded into a reused packet.
	if typ == wire.TypeClientPacket {
		if m == nil {
			r.drop(DropNotMember)
			return
		}
		if err := r.cp.DecodePayload(payload); err != nil {
			r.drop(DropMalformed)
			return
		}
		r.onClientPacket(m, &r.cp)
		return
	}
	msg, err := wire.Decode(frame)
	if err != nil {
		r.drop(DropMalformed)
		return
	}
	if j, ok := msg.(wire.Join); ok {
		r.onJoin(conn, m, j)
		return
	}
	if m == nil {
		r.drop(DropNotMember)
		return
	}
	switch msg := msg.(type) {
	case wire.SetupChange:
		r.onSetupChange(m, msg)
	case wire.Ready:
		r.onReady(m, msg)
	case wire.StartGame:
		r.onStartGame(m, msg)
	case wire.EndGame:
		if m.slot != r.hostSlot() {
			r.drop(DropSpoof)
			return
		}
		r.EndGame()
	case wire.Ping:
		r.send(m.conn, wire.Pong{ID: msg.ID, Time: msg.Time})
	case wire.Pong:
		r.onPong(m, msg)
	case wire.Leave:
		r.onLeave(m)
	case wire.SnapshotChunk:
		r.onSnapshotChunk(m, msg)
	case wire.Chat:
		r.onChat(m, msg)
	case wire.Pause:
		r.onPause(m, msg)
	case wire.Kick:
		r.onKick(m, msg)
	case wire.Standby:
		r.onStandby(m, msg)
	case wire.Repair:
		r.onRepair(m, msg)
	case wire.Digest:
		r.onDigest(m, msg)
	default:
		r.drop(DropUnexpected)
	}
}

// allowRate counts a frame against the connection's budget for the current
// second.
func (r *Room) allowRate(m *member) bool {
	if r.now-m.rateStart >= time.Second {
		m.rateStart, m.rateCount = r.now, 0
	}
	m.rateCount++
	return m.rateCount <= r.cfg.MaxFramesPerS
}

// allowChat takes one of the connection's chat lines: a bucket of
// ChatBurst lines refilled at ChatPerS, a person's pace, so that nobody
// can flood everyone's lobby through the room's broadcast.
func (r *Room) allowChat(m *member) bool {
	burst := float64(max(r.cfg.ChatBurst, 1))
	if !m.chatted {
		m.chatTokens, m.chatted = burst, true
	} else if r.now > m.chatAt {
		m.chatTokens = min(burst, m.chatTokens+(r.now-m.chatAt).Seconds()*r.cfg.ChatPerS)
	}
	m.chatAt = max(m.chatAt, r.now)
	if m.chatTokens < 1 {
		return false
	}
	m.chatTokens--
	return true
}

// Disconnected tells the room that the transport lost conn.
func (r *Room) Disconnected(now time.Duration, conn ConnID) {
	r.advance(now)
	if m := r.conns[conn]; m != nil {
		r.lose(m)
	}
}

// Tick runs the room's timers: silence, vacancy, lag, resends, periodic
// state. Call it often (every few milliseconds of the caller's clock).
func (r *Room) Tick(now time.Duration) {
	r.advance(now)
	for i := 0; i < len(r.members); i++ {
		m := r.members[i]
		if m.connected && m.stalled {
			if r.stallOver(m) {
				r.send(m.conn, wire.Leave{Reason: wire.LeaveTimeout, Text: stallText(m, now, r.cfg.SilenceTimeout, r.nextTurn)})
				r.loseStalled(m)
				i = -1 // lose may remove members; start over (bounded by len)
			}
			continue
		}
		if m.connected && (now-m.heard > r.cfg.SilenceTimeout || r.ackSilent(m)) {
			if r.stall(m) {
				continue // its place is held, and it is still a member: stall.go
			}
			if now-m.heard <= r.cfg.SilenceTimeout {
				// It sends but never acknowledges: whatever answers there
				// does not receive the game (or will not say so).
				r.send(m.conn, wire.Leave{Reason: wire.LeaveTimeout, Text: "no acknowledgement from you for too long"})
			}
			r.lose(m)
			i = -1 // lose may remove members; start over (bounded by len)
			continue
		}
	}
	r.tickPace()
	switch r.state {
	case wire.StateSetup:
		r.pingMembers()
		r.tickLobbyHeld()
		r.tickFinal() // the last game's world for a player back after the rematch's reset
		if now-r.lastSetup >= r.cfg.StatusEvery {
			r.broadcastSetup()
		}
	case wire.StateRunning:
		r.tickRunning()
	case wire.StateFinished:
		// Whoever lacks the last master turns gets them again: every
		// client must reach the turn the game ended at.
		r.sendMasters(true)
		r.tickRematch()
		r.tickFinal()
		if now-r.lastStatus >= r.cfg.StatusEvery {
			r.broadcastStatus()
		}
	}
}

func (r *Room) advance(now time.Duration) {
	if now > r.now {
		r.now = now
	}
}

// lose handles a connection that is gone: in setup its player leaves; while
// running its slot becomes vacant and is held for a reconnect.
func (r *Room) lose(m *member) {
	if !m.connected {
		return
	}
	m.connected = false
	r.removeMember(m)
	if m.slot < 0 {
		return
	}
	s := &r.slots[m.slot]
	if s.m == m {
		s.m = nil
	}
	if r.keepsRoster() {
		return // a player on its way to the successor (handover.go)
	}
	switch r.state {
	case wire.StateRunning:
		if s.life.live() {
			r.makeVacant(m.slot)
		}
		r.broadcastSetup() // the roster shows who is connected
	default:
		s.free()
		r.broadcastSetup()
	}
}

func (r *Room) removeMember(m *member) {
	delete(r.conns, m.conn)
	for i, x := range r.members {
		if x == m {
			copy(r.members[i:], r.members[i+1:])
			r.members[len(r.members)-1] = nil
			r.members = r.members[:len(r.members)-1]
			break
		}
	}
}

// Kick removes conn from the room, telling it why.
func (r *Room) Kick(now time.Duration, conn ConnID, text string) {
	r.advance(now)
	if m := r.conns[conn]; m != nil {
		r.send(conn, wire.Leave{Reason: wire.LeaveKicked, Text: text})
		r.onLeave(m)
	}
}

// Shutdown tells every connection that the room is closing.
func (r *Room) Shutdown(now time.Duration, text string) {
	r.advance(now)
	for _, m := range r.members {
		r.send(m.conn, wire.Leave{Reason: wire.LeaveShutdown, Text: text})
	}
	if r.state == wire.StateRunning {
		r.stopRecording(EndClosed, r.lastCompiled())
	}
	r.state = wire.StateFinished
}

func (r *Room) onLeave(m *member) {
	slotIdx := m.slot
	m.connected = false
	r.removeMember(m)
	if slotIdx < 0 {
		return
	}
	s := &r.slots[slotIdx]
	if s.m == m {
		s.m = nil
	}
	if r.state == wire.StateRunning && s.life.leave() {
		// A player who quits is dropped at once: no slot is held, and
		// the next master turn tells everyone they left.
		r.statusDirty = true
		if r.remaining() == 0 {
			r.finish(wire.EndEmpty, r.lastCompiled())
			return
		}
		r.compile() // the others may have been waiting for this player
		r.checkEnded()
		return
	}
	s.free()
	r.broadcastSetup()
}

func (r *Room) onChat(m *member, c wire.Chat) {
	if !r.allowChat(m) {
		r.drop(DropChat)
		return
	}
	from := uint8(wire.SpectatorSlot)
	if m.slot >= 0 {
		from = uint8(m.slot)
	}
	if c.From != 0 && c.From != from {
		r.drop(DropSpoof) // the room says who spoke, whatever the packet claims
	}
	c.From = from
	// One line of text to show: no control, bidi or zero-width
	// characters (peertext.Clean). Nothing left: nothing to relay.
	if c.Text = peertext.Clean(c.Text, wire.MaxChat); c.Text == "" {
		r.drop(DropMalformed)
		return
	}
	for _, x := range r.members {
		r.send(x.conn, c)
	}
}

// maxBans bounds the player ids a room remembers as kicked.
const maxBans = 64

// onKick removes a player from the lobby at the host player's word, and
// refuses that player's id from then on. Only the lobby: a running game
// has its own ways (a player who stalls it is dropped as late).
func (r *Room) onKick(m *member, k wire.Kick) {
	host := r.hostSlot()
	t := int(k.Slot)
	if m.slot != host || r.state != wire.StateSetup || t == host || t >= len(r.slots) || !r.slots[t].life.taken() {
		r.drop(DropSpoof)
		return
	}
	s := &r.slots[t]
	if len(r.banned) < maxBans {
		r.banned = append(r.banned, s.id)
	}
	if s.m != nil {
		r.Kick(r.now, s.m.conn, "") // the reason says it all
		return
	}
	s.free()
	r.broadcastSetup()
}

// isBanned reports whether the host kicked player id from this room.
func (r *Room) isBanned(id [16]byte) bool {
	for _, b := range r.banned {
		if b == id {
			return true
		}
	}
	return false
}

func (r *Room) onPause(m *member, p wire.Pause) {
	if m.slot != r.hostSlot() || r.state != wire.StateRunning {
		r.drop(DropSpoof)
		return
	}
	switch {
	case p.Paused && r.child != wire.ChildPaused && !r.pausing:
		r.pausing = true
		r.queueEvent(wire.RoomEvent{Kind: wire.EventPause})
	case !p.Paused && (r.child == wire.ChildPaused || r.pausing):
		r.unpause()
		r.compile()
	}
}

// unpause cancels a pause that was asked for, or ends one in force: the
// game compiles turns again, and every client hears it resumed.
func (r *Room) unpause() {
	if r.pausing {
		r.pausing = false
		r.dropQueuedPause()
		return
	}
	if r.child == wire.ChildPaused {
		r.child = wire.ChildIterating
		r.lastCompile = r.now
		r.queueEvent(wire.RoomEvent{Kind: wire.EventResume})
		r.statusDirty = true
	}
}

func (r *Room) dropQueuedPause() {
	for i, e := range r.events {
		if e.Kind == wire.EventPause {
			r.events = append(r.events[:i], r.events[i+1:]...)
			return
		}
	}
}

func (r *Room) queueEvent(e wire.RoomEvent) {
	if len(r.events) < wire.MaxEvents {
		r.events = append(r.events, e)
	}
}

// spectators returns how many spectators are connected.
func (r *Room) spectators() int {
	n := 0
	for _, m := range r.members {
		if m.slot < 0 {
			n++
		}
	}
	return n
}
