package room

import (
	"io"
	"time"

	"rockstep/game"
	"rockstep/internal/peertext"
	"rockstep/net/wire"
)

// onJoin admits a connection as a new player, a returning player (by
// token) or a spectator, or refuses it. A repeated Join on the same
// connection (the Welcome was lost) is answered again, identically.
//
// New players take a free slot in setup, and also while the last game's
// results are shown (finished): they are in the lobby of the rematch.
// While a game runs, newcomers watch.
func (r *Room) onJoin(conn ConnID, m *member, j wire.Join) {
	if j.RoomID != 0 && j.RoomID != r.cfg.RoomID {
		r.send(conn, wire.Refuse{Reason: wire.RefuseNoRoom})
		return
	}
	if m != nil {
		if m.inPlace {
			r.welcomeResumed(m)
			return
		}
		r.welcome(m)
		return
	}
	if r.isBanned(j.PlayerID) {
		r.send(conn, wire.Refuse{Reason: wire.RefuseBanned})
		return
	}
	if r.state == wire.StateFinished && r.desync == nil && len(r.members) == 0 {
		r.reset()
	}
	if !r.sameRules(j.Rules) {
		r.drop(DropRules)
		r.send(conn, wire.Refuse{Reason: wire.RefuseRules})
		return
	}
	var zero [16]byte
	if j.Token != zero && r.handed {
		switch {
		case r.resumeJoin(conn, j):
			r.lobbyChatTo(conn, j) // a resumed lobby's chat, for a player back on a new program (lobbyhandover.go)
		case !r.seatReturning(conn, j): // back after the rematch's reset (rematch.go)
			r.drop(DropSpoof)
			r.send(conn, wire.Refuse{Reason: wire.RefuseBadToken})
		}
		return
	}
	if j.Token != zero {
		if !r.seatReturning(conn, j) { // back after the rematch's reset (rematch.go)
			r.rejoin(conn, j)
		}
		return
	}
	if j.Spectate || r.state == wire.StateRunning {
		if r.state != wire.StateRunning {
			r.send(conn, wire.Refuse{Reason: wire.RefuseRunning, Text: "no game is running to watch"})
			return
		}
		if r.spectators() >= r.cfg.MaxSpectators {
			r.send(conn, wire.Refuse{Reason: wire.RefuseRunning, Text: "no one else can watch it"})
			return
		}
		spectator := r.addMember(conn, -1)
		spectator.id, spectator.name = j.PlayerID, peertext.Clean(j.Name, wire.MaxName)
		r.welcome(spectator)
		r.startSnapshot(spectator)
		return
	}
	free := r.freeSlot()
	if free < 0 {
		r.send(conn, wire.Refuse{Reason: wire.RefuseFull})
		return
	}
	if !r.seat(free, j.PlayerID, j.Name) {
		r.send(conn, wire.Refuse{Reason: wire.RefuseShutdown, Text: "the room cannot issue tokens"})
		return
	}
	r.seated(r.addMember(conn, free))
	r.broadcastSetup()
}

// sameRules reports whether a build with the rules digest rules may join:
// its rules are the room's (Config.Rules), or, with none configured, those
// of the first to join while no one is in the room (no member, no slot
// held), which it then sets. Every Join is checked, a returning player's
// too: a player who restarted with another build must not rejoin.
func (r *Room) sameRules(rules uint64) bool {
	switch {
	case r.cfg.Rules != 0:
		return rules == r.cfg.Rules
	case !r.hasRules || r.vacantRoom():
		r.rules, r.hasRules = rules, true
		return true
	}
	return rules == r.rules
}

// vacantRoom reports whether no one is in the room: no connection, no
// slot held.
func (r *Room) vacantRoom() bool {
	if len(r.members) > 0 {
		return false
	}
	for i := range r.slots {
		if r.slots[i].life.taken() {
			return false
		}
	}
	return true
}

// freeSlot returns the lowest slot no player holds, or -1 if the room is
// full.
func (r *Room) freeSlot() int {
	for i := 0; i < r.cfg.MaxPlayers; i++ {
		if !r.slots[i].life.taken() {
			return i
		}
	}
	return -1
}

// seat gives free slot i to a new player, with a fresh session token;
// false (the slot left free) if no token can be made.
func (r *Room) seat(i int, id [16]byte, name string) bool {
	s := &r.slots[i]
	*s = slot{id: id, name: r.playerName(name, i, id), colour: uint8(i)}
	s.life.seat()
	if _, err := io.ReadFull(r.cfg.Random, s.token[:]); err != nil {
		s.free()
		return false
	}
	s.tokenHash = TokenHash(s.token)
	return true
}

// seated welcomes member m into the slot just given to it, and measures
// its round trip for the lobby and the start.
func (r *Room) seated(m *member) {
	r.slots[m.slot].m = m
	r.welcome(m)
	r.send(m.conn, wire.Ping{ID: uint32(m.conn), Time: int64(r.now / time.Microsecond)})
}

// takeSeat makes spectator m a player of the next game, in the lowest free
// slot, when no game runs: one who watched the last game and asks to play
// the rematch (its Ready). False if it stays a spectator: the room is full
// (it is sent the roster, which says so) or cannot issue a token.
func (r *Room) takeSeat(m *member) bool {
	free := r.freeSlot()
	if free < 0 || !r.seat(free, m.id, m.name) {
		r.send(m.conn, r.setupState())
		return false
	}
	m.slot = free
	m.id, m.name = [16]byte{}, ""
	r.noteOwner(m)
	r.seated(m)
	return true
}

// rejoin gives a slot back to the player holding its token.
func (r *Room) rejoin(conn ConnID, j wire.Join) {
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.taken() || s.token != j.Token {
			continue
		}
		m := r.reclaimSlot(conn, i)
		if j.Name != "" {
			s.name = r.playerName(j.Name, i, s.id)
		}
		r.catchUp(m)
		return
	}
	r.drop(DropSpoof)
	r.send(conn, wire.Refuse{Reason: wire.RefuseBadToken})
}

// reclaimSlot gives slot i to a new connection of its player: the old
// one, if any, is stale (the player came back on a new one).
func (r *Room) reclaimSlot(conn ConnID, i int) *member {
	s := &r.slots[i]
	if old := s.m; old != nil {
		old.connected = false
		r.removeMember(old)
	}
	m := r.addMember(conn, i)
	s.m = m
	return m
}

// catchUp welcomes a player back into its slot; in a running game it
// catches up from a snapshot, and the room stops waiting for its turns
// until it has (see storeTurn).
func (r *Room) catchUp(m *member) {
	s := &r.slots[m.slot]
	r.welcome(m)
	if r.state == wire.StateRunning && s.life.inGame() {
		if s.life.live() {
			r.holdSlot(m.slot)
		}
		s.life.rejoin()
		r.startSnapshot(m)
		r.statusDirty = true
	}
	r.broadcastSetup()
	r.sendFinal(m) // back after the end: the ended game's world, for its results (final.go)
}

func (r *Room) addMember(conn ConnID, slotIdx int) *member {
	m := &member{conn: conn, slot: slotIdx, connected: true, heard: r.now, rateStart: r.now}
	r.noteOwner(m)
	r.conns[conn] = m
	r.members = append(r.members, m)
	return m
}

func (r *Room) welcome(m *member) {
	w := wire.Welcome{RoomID: r.cfg.RoomID, Slot: wire.SpectatorSlot, State: r.state}
	if m.slot >= 0 {
		w.Slot = uint8(m.slot)
		w.Token = r.slots[m.slot].token
	}
	r.send(m.conn, w)
	r.send(m.conn, r.setupState()) // the roster and names, in every state
	// A member that has started has answered its Start (or snapshot): a
	// repeated Join from it is a stale copy, and sending it the game's first
	// Start again would restart, at turn 0, a player that came back into the
	// game from a snapshot. One that has not started is sent Start until it
	// answers (sendStarts).
}

func (r *Room) setupState() wire.SetupState {
	return wire.SetupState{
		Revision: r.revision,
		RoomID:   r.cfg.RoomID,
		Game:     r.game,
		Name:     r.cfg.Name,
		Setup:    r.setup,
		MaxSlots: uint8(r.cfg.MaxPlayers),
		Players:  r.Roster(),
	}
}

// broadcastSetup sends the full setup and roster to everyone: after every
// change, and now and then so a lost copy is replaced.
func (r *Room) broadcastSetup() {
	r.revision++
	r.lastSetup = r.now
	r.lastHost = r.hostSlot()
	st := r.setupState()
	for _, m := range r.members {
		r.send(m.conn, st)
	}
	r.updateSuccessors(false) // the roster may have changed them (only while running)
}

// takeSetupChange applies the host's SetupChange (taken at its pace:
// onSetupChange).
func (r *Room) takeSetupChange(m *member, c wire.SetupChange) {
	if r.state != wire.StateSetup || m.slot != r.hostSlot() {
		r.drop(DropSpoof)
		return
	}
	s := c.Setup
	s.Seed, s.Players = 0, 1
	if s.Validate() != nil {
		r.drop(DropUnexpected)
		return
	}
	s.Players = 0
	if s == r.setup {
		r.send(m.conn, r.setupState())
		return
	}
	r.setup = s
	// A changed setup asks every other player to confirm it: a Ready given
	// for the old one does not start a game of the new one. The host, who
	// chose it, stays as ready as it was.
	for i := range r.slots {
		if i != m.slot {
			r.slots[i].ready = false
		}
	}
	r.broadcastSetup()
}

// takeReady applies a member's Ready (taken at its pace: onReady).
func (r *Room) takeReady(m *member, rd wire.Ready) {
	if m.slot < 0 {
		if !rd.Ready || r.state == wire.StateRunning {
			r.drop(DropUnexpected)
			return
		}
		if !r.takeSeat(m) {
			return
		}
	}
	if r.state == wire.StateFinished && rd.Ready {
		if r.holdRematch(m) {
			return // taken by tickRematch once everyone has the end
		}
		r.reset() // a rematch: back to setup with the same players
	}
	if r.state != wire.StateSetup {
		r.drop(DropUnexpected)
		return
	}
	s := &r.slots[m.slot]
	if s.ready != rd.Ready {
		s.ready = rd.Ready
		r.broadcastSetup()
	} else {
		r.send(m.conn, r.setupState())
	}
	if r.cfg.AutoStart > 0 && r.PlayerCount() >= r.cfg.AutoStart && r.allReady() {
		r.startPaced()
	}
}

func (r *Room) onStartGame(m *member, sg wire.StartGame) {
	if m.slot != r.hostSlot() {
		r.drop(DropSpoof)
		return
	}
	if r.state != wire.StateSetup {
		return // a repeated request after the start
	}
	if sg.Game != r.game {
		r.drop(DropUnexpected) // a wish made for another game: stale
		return
	}
	if !r.allReady() {
		r.drop(DropUnexpected)
		return
	}
	r.releaseLobbyHeld() // the host starts without those who did not come back (lobbyhandover.go)
	r.startPaced()
}

func (r *Room) allReady() bool {
	n := 0
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.taken() || r.heldAway(i) {
			continue // a seat held for a player not back does not keep Start off
		}
		if !s.ready || s.m == nil {
			return false
		}
		n++
	}
	return n > 0
}

// start moves the room to running: the roster is locked, a seed is drawn,
// and every player is told the setup and timing of turn 0.
func (r *Room) start() {
	var seed [8]byte
	if _, err := io.ReadFull(r.cfg.Random, seed[:]); err != nil {
		return
	}
	r.setup.Seed = uint64(seed[0]) | uint64(seed[1])<<8 | uint64(seed[2])<<16 | uint64(seed[3])<<24 |
		uint64(seed[4])<<32 | uint64(seed[5])<<40 | uint64(seed[6])<<48 | uint64(seed[7])<<56
	if r.cfg.Seed != 0 {
		r.setup.Seed = r.cfg.Seed
	}
	r.setup.Players = 0
	r.cast = [game.MaxPlayers]string{}
	for i := range r.slots {
		s := &r.slots[i]
		if s.life.begin() {
			r.setup.Players |= 1 << i
			r.cast[i] = s.name
			s.ack = 0
			s.have = [clientRing]bool{}
		}
	}
	r.state, r.child = wire.StateRunning, wire.ChildIterating
	r.nextTurn = 0
	r.cur = timing{at: 0, k: uint8(r.cfg.K), delay: uint8(r.cfg.Delay)}
	if !r.cfg.FixedTiming {
		// Start with the timing the round trips measured in the lobby
		// call for, rather than stalling until the first reports.
		r.cur.k, r.cur.delay = r.wantTiming()
	}
	r.lastTiming, r.timingChecks = r.now, 0
	r.hasPending = false
	r.horizon = 0
	r.lastCompile = r.now
	r.events = r.events[:0]
	r.hashes = [hashRing]hashRecord{}
	r.desync = nil
	r.resetRepair()
	// The snapshot held or asked for is of the last game's world: no one
	// catches up from it (a new ask resets the assembly).
	r.snap.ready, r.snap.asking = false, false
	r.pausing, r.ending, r.endSeen = false, false, false
	r.end, r.final = 0, 0
	r.pace.startHeld = false
	for _, m := range r.members {
		m.pace.heldReady, m.pace.heldSetup = false, false // lobby requests of the lobby just left
		m.started, m.masterAck, m.sentTo, m.resentTo = false, 0, 0, 0
		m.needSnap = false // a spectator of the last game: this one starts at turn 0
		m.lastStart = r.now - r.cfg.ResendEvery*10
	}
	r.startRecording()
	r.sendStarts()
	r.broadcastStatus()
}

// startMessage is what a player needs to run the game from turn 0.
func (r *Room) startMessage() wire.Start {
	first := r.timingAt(0)
	return wire.Start{Setup: r.setup, Names: r.cast, FirstTurn: 0, K: first.k, Delay: first.delay}
}

// reset returns a finished room to setup for a rematch: same players, no
// one ready, a fresh game to come (with its own number, so that no start
// request made for the last one can start it).
func (r *Room) reset() {
	r.stopRecording(EndFinished, r.lastCompiled())
	r.game++
	r.state, r.child = wire.StateSetup, wire.ChildIterating
	r.end, r.final, r.endSeen, r.ending = 0, 0, false, false
	r.rematch.held = false
	r.gaveAway = false // a new lobby here, of its own
	r.setup = r.setup.Options()
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.taken() {
			continue
		}
		if s.m == nil || !s.life.toLobby(true) {
			r.keepReturning(i, r.game) // its player may come back to the lobby (rematch.go)
			s.free()
			continue
		}
		s.ready = false
	}
	r.desync = nil
	r.broadcastSetup()
	r.broadcastStatus()
}

// noteOwner makes m's slot the host's if m is the host player's
// connection (Config.Hosts).
func (r *Room) noteOwner(m *member) {
	if m.slot >= 0 && r.cfg.Hosts != nil && r.cfg.Hosts(m.conn) {
		r.owner, r.ownerID = m.slot, r.slots[m.slot].id
	}
}
