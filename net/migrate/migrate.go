// Package migrate decides a player's side of host migration: when the game
// leaves its host, which successor it goes to, whether this player takes
// the game, when it gives up and why (docs/ARCHITECTURE.md, "When the host
// goes away"). Machine is a pure state machine, as the room and the session
// are: it is told what happened (the session's view at each step, the
// connection lost, a dial's result, a refusal, a probe's answer, the time)
// and returns what to do (cut the connection, probe the old host, dial a
// successor, ask the later ones, join, serve the game, yield it, rejoin
// the host that still answers, give up).
// net/client carries the actions out on its sockets and goroutines and
// holds no decision of its own. It is a package of its own, not a part of
// net/lockstep, because it speaks of connections, dials and probes, which
// the session (one connection's protocol) never sees.
//
// Time is the caller's clock as a time.Duration (the client's time since
// it started; virtual time in tests). A Machine is not safe for concurrent
// use: the client calls it under its lock.
package migrate

import (
	"errors"
	"slices"
	"time"

	"rockstep/net/wire"
)

// Timings of the migration.
const (
	// ProbeEvery is how often the other players' standby ports are probed.
	ProbeEvery = time.Second
	// ProbeTimeout: a probe not answered in this time fails.
	ProbeTimeout = time.Second
	// ProbeMemory: a port that answered this recently counts as reached
	// (one probe lost on a busy machine does not reorder the successors).
	ProbeMemory = 5 * time.Second
	// ElectTimeout: a successor (or the old host, probed) that does not
	// answer a handshake in this time is passed over.
	ElectTimeout = 700 * time.Millisecond
	// RefusalWait is the least time a later successor is given to say it
	// still has the host (a refusal is a round trip after the handshake).
	RefusalWait = 150 * time.Millisecond
	// Limit: the successors are tried this long before the game ends for
	// this player; a player that came to a successor's room this recently
	// is still moving (RefuseMoving).
	Limit = 10 * time.Second
	// HostHeardRecently: a player that heard the host this recently does
	// not leave it for a successor because another player asks.
	HostHeardRecently = time.Second
	// RetryWalk is the pause between two walks of the successor list.
	RetryWalk = 200 * time.Millisecond
	// SilentAfter is the room's silence in a flowing game after which the
	// old host is probed (a fresh handshake), so that the answer is known
	// when the move starts; the screens say "waiting for the host…" then
	// too (lockstep.SilentAfter, the same half second).
	SilentAfter = 500 * time.Millisecond
	// PlaySilence is the room's silence in a flowing game (the session's
	// RoomSilence: master packets come 7.5 to 60 times a second then)
	// after which the host is taken for gone and the move starts, without
	// waiting for the transport's timeout (3 s), which still decides in
	// the lobby, a paused or a lagging game. It is longer than a host
	// stalled for one second (SIGSTOP, a swapping machine) is silent, with
	// half a second to spare for a loaded machine: such a host keeps its
	// game. Measured: BENCHMARKS.md, "host migration".
	PlaySilence = 1500 * time.Millisecond
	// AliveSilence replaces PlaySilence when the old host answered this
	// silence's probe: it is stalled (a starved machine), not gone, and
	// cutting its game at 1.5 s would end it for this player, who would
	// find the host there and get only Rejoin. It is the transport's own
	// timeout (3 s), which ends a connection that hears nothing anyway.
	AliveSilence = 3 * time.Second
)

// Why the game ends for this player (Action.Err of GiveUp, and the
// client's Err).
var (
	// ErrHostStillThere: the connection to the host was lost while the
	// host still answers: only this player's link failed, the game does
	// not move (the player can rejoin with its token).
	ErrHostStillThere = errors.New("the connection to the host was lost, but the host is still there: rejoin the game")
	// ErrNoSuccessor: the host went away and no successor could be reached.
	ErrNoSuccessor = errors.New("the host went away and no other player could carry the game on")
	// ErrNotTakenIn: the link to the host failed and no successor took
	// this player in: the others still had the host.
	ErrNotTakenIn = errors.New("the connection to the host was lost, and the game went on without this player")
)

// Why a connection is cut (Action.Err of Cut).
var (
	// ErrHandover: the host said it is going, or another player lost the
	// host and asked this one to come along.
	ErrHandover = errors.New("the host handed the game over")
	// ErrTurnedAway: the successor this player went to does not host the
	// game (it still plays under a host): the list is walked again.
	ErrTurnedAway = errors.New("that player does not host the game")
	// ErrSilent: the room said nothing for PlaySilence while the game
	// should flow: the host is gone.
	ErrSilent = errors.New("the host fell silent")
)

// Phase is where this player stands in the game's succession.
type Phase uint8

const (
	// Following: playing under a host (the first, or a successor since).
	Following Phase = iota
	// Checking: the connection to the host is lost; the old host is
	// probed: if it still answers, only this player's link failed.
	Checking
	// Walking: dialling the successors in the list's order (or the host
	// that still answers, to rejoin it: rejoin.go).
	Walking
	// Asking: this player is the first successor it reaches; it asks the
	// later ones whether they still hear the host before it takes the game.
	Asking
	// Pausing: no successor took the game in this walk (or the host's
	// redial failed); the next begins at Machine.Wake.
	Pausing
	// Joining: connected to a successor's room (or again to the host's),
	// the session sends a resuming Join until the room takes it in.
	Joining
	// Hosting: this player's machine runs the game's room.
	Hosting
	// Over: the game ended here (Machine.Why).
	Over
)

var phaseNames = [...]string{"following", "checking", "walking", "asking", "pausing", "joining", "hosting", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Kind is what an Action asks the client to do.
type Kind uint8

const (
	// Cut ends the current connection to the room (Err says why); the
	// client then reports Lost.
	Cut Kind = iota + 1
	// ProbeHost: does the old host still complete a handshake (in
	// Timeout)? Answer with HostAnswered.
	ProbeHost
	// Dial connects to Cand's standby port (in ElectTimeout); answer with
	// Dialled.
	Dial
	// Ask sends a resuming Join to each of Cands (the later successors)
	// and waits for a RefuseNotHosting; answer with Answered, once per
	// candidate.
	Ask
	// Join moves the session to the room of Cand, over the connection the
	// last Dial opened (lockstep.Session.Migrate).
	Join
	// Serve opens the game's room here from this player's world; the
	// slots in Expected are awaited, and the game is listed on the LAN.
	Serve
	// Wait: call Tick at At.
	Wait
	// Yield gives the game this player hosts to Cand, an earlier
	// successor that answered; answer with Yielded.
	Yield
	// GiveUp ends the client: Err (nil: the connection's own error).
	GiveUp
	// Move takes the game to a room on the community server Server (no
	// successor a majority can reach is left: server.go): connect to it
	// (within a few seconds: it is on the internet), ask it for the game's room (wire.MoveGame with
	// Key; Expected are the slots the room waits for), and answer with
	// Dialled; a Join over that connection follows.
	Move
	// Redial connects again to the host this player lost (HostAddr),
	// which must prove the host key it proved before, in Timeout: the
	// host still answers, only this player's link failed (rejoin.go).
	// Answer with Dialled; a Rejoin over that connection follows.
	Redial
	// Rejoin moves the session back to the room it lost, over the
	// connection the last Redial opened (lockstep.Session.Rejoin: the
	// Join names that room, with the player's token).
	Rejoin
)

var kindNames = [...]string{"?", "cut", "probe-host", "dial", "ask", "join", "serve", "wait", "yield", "give-up", "move", "redial", "rejoin"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Action is one thing the client does for the machine.
type Action struct {
	Kind     Kind
	Cand     wire.Successor      // Dial, Join, Yield
	Cands    []wire.Successor    // Ask
	Expected uint8               // Serve: the slots awaited in the new room
	At       time.Duration       // Wait
	Timeout  time.Duration       // ProbeHost, Redial
	Probe    int                 // ProbeHost: the probe's number, given back to HostAnswered
	Err      error               // Cut, GiveUp
	Server   wire.FallbackServer // Move
	Key      [16]byte            // Move: the game's move key (MoveKey), the same on every player
}

// View is what the session says at a step (lockstep.Session's readings).
type View struct {
	Playing    bool            // a game runs here and has not ended
	Catching   bool            // ... or this player, back in it, waits for the room's snapshot (lockstep.Session.CatchingUp)
	Lobby      bool            // this player holds a seat in a room's lobby: it is carried on as a game is (lobby.go)
	Asked      bool            // the room said it is going (HandoverAsked)
	Migrating  bool            // the session sends a resuming Join (Migrating)
	TurnedAway bool            // ... and that room does not host the game (TurnedAway)
	Silence    time.Duration   // the room's silence in a flowing game (RoomSilence)
	List       wire.Successors // the room's latest successors
	Slot       int             // this player's slot
	Turn       uint32          // the turns this player's game has executed (lockstep.Session.ExecutedTurns)
	Apart      bool            // the room holds the game for want of a majority (lockstep.Session.Apart)
	// Vacancy: a member of the game is held vacant (wire.RoomStatus.Vacant).
	Vacancy bool
	// Deserted: Apart, and the absent are more than half of the game's
	// members: they may be a majority together at a successor's room
	// (the host cut off from its players while they moved the game).
	Deserted bool
}

// role is what this player's machine can do for the game.
type role uint8

const (
	// bystander: no standby port; it can neither carry the game on nor
	// follow it (only an in-process connection whose room said it is
	// going is cut).
	bystander role = iota
	// candidate: a standby port: it follows the game to a successor, or
	// carries it on itself.
	candidate
	// owner: the player whose own machine runs the game's room from the
	// start, attached in-process, without a standby port (the Host
	// button's player). Its room is the game while a majority plays there;
	// cut off from its players while they moved the game on, it finds
	// their room, gives its own up to it and rejoins there (NewOwner).
	owner
)

// episode is where this player stands in a silence of the room while
// the game should flow: the old host is probed once, early, so that its
// answer is known when the move starts.
type episode uint8

const (
	// roomHeard: the room speaks (or the game does not flow): no silence.
	roomHeard episode = iota
	// probing: the room is silent and a ProbeHost is out.
	probing
	// hostAlive: the probe found the old host answering handshakes.
	hostAlive
	// hostGone: the probe found no answer.
	hostGone
)

// hostState is where the room this player's machine runs stands
// (phase Hosting).
type hostState uint8

const (
	// opened: the room is open at turn Machine.servedAt and has not yet
	// compiled a turn: it waits for its players, and plays only with a
	// strict majority of the game's members (room.Room.Majority). Until
	// then the move is not announced (Announced): a successor cut off
	// from the others must not say it hosts the game.
	opened hostState = iota
	// leading: a majority played a turn in it: this player hosts the game.
	leading
	// deserted: a majority played in it, and now more than half of the
	// game's members are away from it (View.Deserted): it holds, and the
	// absent may play on at a successor's room. The first candidate of
	// the list whose standby answers a probe is where they went (they
	// walked the list in that order): the room gives the game to it.
	deserted
	// yielding: it gives the game to an earlier successor that answered
	// (or, deserted, to the candidate that answered).
	yielding
)

// Machine is one player's side of host migration. The zero value is not
// ready: use New.
type Machine struct {
	phase Phase
	why   error // Over: why the game ended here
	role  role
	// Facts of the connection this player follows the room over:
	net bool // it is a network connection (it can be lost), not an in-process pipe
	cut bool // a Cut was asked for it: it ends, and Lost comes next

	heard   time.Duration // when the room last sent a frame
	since   time.Duration // when this player came to the room it follows
	movedAt time.Duration // when this player last went to another's room (0: never)
	moves   int           // migrations so far
	rejoins int           // rejoins of the host this player lost while it answered (rejoin.go)
	host    int           // the slot hosting since the last one (-1: none)
	before  int           // ... and before it (Announced, while our room is only opened)
	addr    string        // the host's address ("" when this player hosts)

	// The silence episode of a flowing game: the old host probed early.
	silence episode
	probe   int // the number of the last ProbeHost

	// The walks since the room was lost (walk.go).
	walk     walk
	list     []wire.Successor
	slot     int
	deadline time.Duration // the walks end then
	lostAt   time.Duration // when the room was lost (the rejoin's hold counts from it)
	at       int           // the candidate being dialled, or this player's place
	pending  int           // Ask answers outstanding in this round
	refused  bool          // a fact of this Ask round: one of its answers was RefuseNotHosting
	wake     time.Duration // Pausing: the next walk
	joining  wire.Successor
	noWorld  bool // a fact of this loss: the player was catching up from a snapshot, and has no world to host from

	// The last successor (server.go): the game's fallback servers (the
	// one being dialled is the walk's), the one the game went to, and
	// the game's move key.
	servers []wire.FallbackServer
	server  wire.FallbackServer
	moveKey [16]byte

	// While hosting: the successors passed over, probed (an earlier
	// one that answers leads the game too, and gets it); where the room
	// stands, and the turn it opened at.
	earlier  []wire.Successor
	hosting  hostState
	servedAt uint32
	left     string // the host this player lost when the move began ("": it said it is going)

	answered [8]time.Duration // when each slot's standby last answered a probe
	everOK   [8]bool
	failed   [8]int // probes of each slot's standby that failed since it last answered (reach.go)
}

// New returns the machine of a player who joined the room at addr (""
// over an in-process pipe), following its host. Without a standby port
// the player cannot carry the game on: the machine only ends an
// in-process connection whose room said it is going.
func New(now time.Duration, addr string, standby bool) *Machine {
	r := bystander
	if standby {
		r = candidate
	}
	return &Machine{phase: Following, role: r, net: addr != "", heard: now, since: now, host: -1, addr: addr}
}

// NewOwner returns the machine of the player whose own machine runs the
// game's room, attached to it in-process, without a standby port (the
// Host button's player). It hosts from the start. Its room holds the game
// without a majority (room.Room.Majority); when more than half of the
// members are away from it (View.Deserted: the host cut off while they
// moved the game to a successor), the list's candidates are probed
// (ProbeTargets), and the first that answers is given the game (Yield):
// this player then follows its room's word there and rejoins the
// majority's game, rather than play on as a second game at the end of
// the countdown.
func NewOwner(now time.Duration) *Machine {
	return &Machine{phase: Hosting, role: owner, heard: now, since: now, host: -1, before: -1, hosting: leading}
}

// Phase returns where this player stands.
func (m *Machine) Phase() Phase { return m.phase }

// Why returns why the game ended here (nil unless Over).
func (m *Machine) Why() error { return m.why }

// Moves returns how many times the game moved to a successor under this
// player, and the slot hosting it since the last move (-1: never moved).
func (m *Machine) Moves() (n, hostSlot int) { return m.moves, m.host }

// Rejoins returns how many times this player came back by itself into
// the room whose connection it lost while the host still answered
// (rejoin.go): no move.
func (m *Machine) Rejoins() int { return m.rejoins }

// Announced returns the moves this player is told of (the screens' "you
// host the game now"), and the slot hosting since the last: a move to
// this player's own room counts once a strict majority of the game's
// members played a turn in it, so that a successor cut off from the
// others never says it hosts the game while they play on elsewhere.
func (m *Machine) Announced() (n, hostSlot int) {
	if m.phase == Hosting && m.hosting == opened {
		return m.moves - 1, m.before
	}
	return m.moves, m.host
}

// Leading reports whether this player hosts the game and a majority of its
// members played a turn in its room.
func (m *Machine) Leading() bool { return m.phase == Hosting && m.hosting == leading }

// HostAddr returns the address of the room this player plays in ("" when
// it hosts it).
func (m *Machine) HostAddr() string { return m.addr }

// Hosting reports whether this player's machine runs the game's room
// since a move.
func (m *Machine) Hosting() bool { return m.phase == Hosting && m.role != owner }

// Wake returns when the machine wants Tick (Pausing), and whether it does.
func (m *Machine) Wake() (time.Duration, bool) { return m.wake, m.phase == Pausing }

// Heard notes that the room sent a frame.
func (m *Machine) Heard(now time.Duration) { m.heard = now }

// Step reads the session after each of its updates: the room's word that
// it is going, a successor that turned this player away, the room that
// took it in, silence, the handover limit.
func (m *Machine) Step(now time.Duration, v View) []Action {
	if m.role == bystander {
		if m.phase == Following && !m.net && !m.cut && v.Asked {
			return m.cutWith(ErrHandover)
		}
		return nil
	}
	switch m.phase {
	case Following:
		if m.cut {
			return nil // the connection ends: Lost comes next
		}
		if !v.Playing && !v.Lobby && !(v.Catching && v.Asked) {
			m.silence = roomHeard
			return nil
		}
		if v.Asked {
			return m.cutWith(ErrHandover) // the host said it is going (or our own room gave the game away)
		}
		if !m.net {
			return nil
		}
		// The session's silence runs from the last word of any room: a
		// room just joined has not been silent longer than we are in it.
		silence := min(v.Silence, now-m.since)
		switch {
		case silence < SilentAfter:
			// The game flows (or has its own word: paused, lagging): a new
			// silence begins afresh, and a probe still out is forgotten.
			m.silence = roomHeard
		case silence >= PlaySilence && len(v.List.List) > 0 && !v.Lobby && (m.silence != hostAlive || silence >= AliveSilence): // a lobby waits for the transport's timeout (lobby.go)
			return m.cutWith(ErrSilent)
		case m.silence == roomHeard:
			m.silence = probing
			return m.probeHost()
		}
	case Joining:
		if m.walk.rejoining() {
			return m.stepRejoin(now, v)
		}
		switch {
		case m.cut:
		case v.TurnedAway:
			return m.cutWith(ErrTurnedAway) // that successor still plays under a host: walk again
		case !v.Migrating:
			// The successor's room took us in: the game moved.
			m.phase, m.since, m.moves, m.host, m.addr = Following, now, m.moves+1, int(m.joining.Slot), m.joining.Addr.String()
			if m.joining.Slot == serverSlot {
				m.host, m.addr = OnServer, m.server.Addr
			}
			m.walk.end()
			m.silence = roomHeard
		case m.movedAt != 0 && now-m.movedAt > Limit:
			// It never took us in (it still had the host, which we could
			// not reach): the game cannot go on for this player.
			m.over(ErrNotTakenIn)
			m.cut = true
			return []Action{{Kind: Cut, Err: ErrNoSuccessor}}
		}
	case Hosting:
		if v.Asked && !m.cut {
			return m.cutWith(ErrHandover)
		}
		if m.hostsLobby(v) {
			return nil
		}
		if m.hosting == leading && !v.Vacancy && len(v.List.List) > 0 {
			// The successors while every member plays here: the list the
			// others walk if they lose this room. Once they are away from
			// it, it lists none of them (they are given up one by one, so
			// the list shrinks first), and they are where to look for the
			// game (ProbeTargets, deserted).
			m.list = append(m.list[:0], v.List.List...)
		}
		switch {
		case m.hosting == opened && v.Playing && !v.Migrating && !v.Apart && v.Turn > m.servedAt:
			// Our room compiled a turn, which it does only with a strict
			// majority of the game's members: we host the game.
			m.hosting = leading
		case m.hosting == leading && v.Playing && v.Deserted:
			m.hosting = deserted // the others may have moved the game on: look for them
		case m.hosting == deserted && !(v.Playing && v.Deserted):
			m.hosting = leading // they came back (or the game ended here)
		}
	}
	return nil
}

func (m *Machine) cutWith(err error) []Action {
	m.cut = true
	return []Action{{Kind: Cut, Err: err}}
}

func (m *Machine) over(err error) {
	m.phase, m.why = Over, err
}

func (m *Machine) giveUp(err error) []Action {
	m.over(err)
	return []Action{{Kind: GiveUp, Err: err}}
}

func (m *Machine) probeHost() []Action {
	m.probe++
	return []Action{{Kind: ProbeHost, Timeout: ElectTimeout, Probe: m.probe}}
}

// HostAnswered reports the answer to ProbeHost number probe: ok if the
// old host completed the handshake. An answer to an earlier probe is
// ignored.
func (m *Machine) HostAnswered(now time.Duration, probe int, ok bool) []Action {
	if probe != m.probe {
		return nil
	}
	switch m.phase {
	case Following:
		if m.silence == probing {
			m.silence = hostAlive
			if !ok {
				m.silence = hostGone
			}
		}
	case Checking:
		if ok {
			// The host did not say it is going and still answers: this
			// player's link failed, not the host. Moving the game would
			// split it; the player rejoins the host (rejoin.go).
			return m.rejoinHost(now)
		}
		return m.beginWalk(now)
	}
	return nil
}

// Lost reports that the connection to the room ended while the client
// runs (not by the player's Close). It returns how the game goes on.
func (m *Machine) Lost(now time.Duration, v View) []Action {
	prev := m.phase
	m.cut = false
	switch {
	case prev == Over:
		return []Action{{Kind: GiveUp, Err: m.why}}
	case !v.Playing && !v.Catching && !v.Lobby || len(v.List.List) == 0,
		m.role == owner && prev == Hosting && m.hosting != yielding:
		// No game to carry on (or the room this player ran from the start
		// went away with it, as the player closed it): it ends as the
		// connection did.
		m.over(nil)
		return []Action{{Kind: GiveUp}}
	}
	list := v.List.List
	if m.role == owner && m.moves == 0 && len(m.list) > 0 {
		// It gave its room up (an owner walks only then, until it is taken
		// in elsewhere). Its room's word names the successor whose standby
		// answered; the others walked the list from before in its order,
		// and the first's answer may have been lost on a busy machine:
		// every walk goes over it all.
		list = m.list
	}
	m.list, m.slot, m.noWorld = append(m.list[:0], list...), v.Slot, !v.Playing && !v.Lobby
	if len(v.List.Servers) > 0 { // a lobby too (server.go)
		m.servers, m.moveKey = append(m.servers[:0], v.List.Servers...), MoveKey(v.List)
	}
	m.hosting, m.earlier = opened, nil
	if prev == Following && m.net && !v.Asked {
		m.left = m.addr // the host lost, not gone by its word: it may be heard again
	} else if prev == Following {
		m.left = ""
	}
	if m.walk.rejoining() && prev != Following && prev != Hosting {
		// The connection to the host being rejoined failed too: try
		// again, while the hold lasts.
		return m.retryRejoin(now)
	}
	switch prev {
	case Joining, Walking, Asking, Pausing, Checking:
		// Turned away, or the successor's connection failed before it
		// took us in: the walk goes on from the first move, until that
		// one would have given up.
		m.walk.turnAway()
		m.deadline = m.movedAt + Limit
		return m.pause(now)
	}
	m.walk.lose(v.Asked)
	m.deadline, m.lostAt = now+Limit, now
	if m.walk.asksLater() && m.silence != hostGone {
		// Nobody said the host is going, and no probe of this silence
		// found it gone: ask it first.
		m.phase, m.silence = Checking, roomHeard
		return m.probeHost()
	}
	return m.beginWalk(now)
}

// beginWalk starts a walk of the successor list, if there is time left.
func (m *Machine) beginWalk(now time.Duration) []Action {
	if m.walk.rejoining() {
		return m.redial(now)
	}
	if now >= m.deadline {
		if m.walk.mayTryServers() && len(m.servers) > 0 {
			// No successor took the game in the handover limit: the
			// server is the last (server.go). Not for a player turned
			// away (the others play on somewhere) nor one cut off (they
			// still have the host): it would wait there alone.
			m.deadline = now + Limit
			m.phase = Walking
			return m.moveTo(0)
		}
		if m.walk.othersPlayOn() {
			return m.giveUp(ErrNotTakenIn)
		}
		return m.giveUp(ErrNoSuccessor)
	}
	m.phase, m.at = Walking, 0
	return m.advance(now)
}

// advance goes on with the walk at m.at: itself, or the next to dial.
// Every player walks the same list in the same order, so players that
// reach the same successors meet at the same one.
func (m *Machine) advance(now time.Duration) []Action {
	if m.at == 0 && len(m.servers) > 0 && len(reachedOnly(m.list)) == 0 {
		// No successor a majority can reach: every player sees the same
		// list and goes to the same server (server.go).
		return m.moveTo(0)
	}
	m.at = m.skipUnreached(m.at)
	if m.at >= len(m.list) {
		return m.pause(now) // nobody answered: walk again (a first dial may time out on a busy machine)
	}
	cand := m.list[m.at]
	if int(cand.Slot) != m.slot {
		return []Action{{Kind: Dial, Cand: cand}}
	}
	if m.noWorld {
		m.at++ // no world to host from: the game goes on at a successor after it
		return m.advance(now)
	}
	later := reachedOnly(m.list[m.at+1:])
	if !m.walk.asksLater() || len(later) == 0 {
		return m.serve()
	}
	m.phase, m.pending, m.refused = Asking, len(later), false
	return []Action{{Kind: Ask, Cands: append([]wire.Successor(nil), later...)}}
}

func (m *Machine) pause(now time.Duration) []Action {
	m.phase, m.wake = Pausing, now+RetryWalk
	return []Action{{Kind: Wait, At: m.wake}}
}

// serve takes the game: the players from this one on in the list are
// expected (those before did not answer).
func (m *Machine) serve() []Action {
	var expected uint8
	for i, c := range m.list {
		if i >= m.at || c.Unreached { // passed over, not gone: they come here too
			expected |= 1 << (c.Slot & 7)
		}
	}
	m.earlier = reachedOnly(m.list[:m.at])
	m.before = m.host
	m.phase, m.net, m.moves, m.host, m.addr = Hosting, false, m.moves+1, m.slot, ""
	m.hosting, m.servedAt = opened, ^uint32(0) // until Served says where it opened
	m.walk.end()
	m.silence = roomHeard
	return []Action{{Kind: Serve, Expected: expected}}
}

// OldHost returns the address of the host this player lost, to probe
// while the room it opened since holds the game for want of a majority
// (v.Apart, no turn played yet): if that host answers again, this
// player's own link had failed, the others play on with it, and this
// room must not become a second game (OldAnswered). ok is false when
// there is nothing to probe.
func (m *Machine) OldHost(v View) (addr string, ok bool) {
	if m.phase != Hosting || m.hosting != opened || !v.Apart || m.left == "" || m.cut {
		return "", false
	}
	return m.left, true
}

// OldAnswered reports the answer to a probe of OldHost: ok if the old host
// completed a handshake. A room still without a majority then gives the
// game up here: its connection is cut, and the game ends for this player
// with ErrHostStillThere, which offers Rejoin to the game the others play
// with the old host.
func (m *Machine) OldAnswered(now time.Duration, ok bool) []Action {
	if !ok || m.phase != Hosting || m.hosting != opened || m.cut {
		return nil
	}
	m.moves, m.host = m.moves-1, m.before // the move never played: no move
	m.over(ErrHostStillThere)
	return m.cutWith(ErrHostStillThere)
}

// Served reports that the room of a Serve is open here at turn next (the
// first turn it compiles; lockstep.State.Next): the move is announced once
// this player's game has executed it (Step).
func (m *Machine) Served(next uint32) {
	if m.phase == Hosting && m.hosting == opened {
		m.servedAt = next
	}
}

// Failed reports that the client could not carry out an action of kind k
// (a Join or a Serve: the session had no game left to carry on, or the
// connection dialled was gone; or nothing to do was given): the game
// cannot go on here. It answers with the GiveUp.
func (m *Machine) Failed(now time.Duration, k Kind) []Action {
	if k == Serve && m.phase == Hosting && m.hosting == opened {
		m.moves, m.host = m.moves-1, m.before // no room was opened: no move
	}
	if m.walk.rejoining() {
		return m.giveUp(ErrHostStillThere)
	}
	return m.giveUp(ErrNoSuccessor)
}

// AnswerWait is how long a later successor's answer to Ask is waited for
// once its handshake took handshake: five times that, between RefusalWait
// and ElectTimeout (a refusal is one round trip after the handshake).
func AnswerWait(handshake time.Duration) time.Duration {
	return min(max(5*handshake, RefusalWait), ElectTimeout)
}

// Dialled reports the result of a Dial.
func (m *Machine) Dialled(now time.Duration, ok bool) []Action {
	if m.phase != Walking {
		return nil
	}
	if m.walk.rejoining() {
		return m.redialled(now, ok)
	}
	if m.walk.dialling() {
		return m.serverDialled(now, ok)
	}
	if !ok {
		m.at++
		return m.advance(now)
	}
	cand := m.list[m.at]
	if !m.walk.afterFirstMove() {
		m.movedAt = now
	}
	m.phase, m.net, m.joining = Joining, true, cand
	return []Action{{Kind: Join, Cand: cand}}
}

// Answered reports one later successor's answer to Ask: refused is true
// if it said RefuseNotHosting (it still hears the host). Any other answer,
// or none, is false: it lost the host too (it comes here), or it went to
// an earlier successor this player passed over (then this one takes the
// game and gives it to that one once it can reach it).
func (m *Machine) Answered(now time.Duration, refused bool) []Action {
	if m.phase != Asking {
		return nil
	}
	m.refused = m.refused || refused
	if m.pending--; m.pending > 0 {
		return nil
	}
	switch {
	case m.refused:
		// Only our link to the host failed: the others play on with it,
		// and a game taken here would be ours alone.
		m.walk.hostHeld()
		return m.pause(now)
	case m.walk.held && !m.walk.came:
		// They had the host a moment ago; no refusal this time may be
		// one that came too late on a busy machine. The game is taken
		// only once one of them shows it lost the host too: it comes
		// here (Called).
		return m.pause(now)
	}
	return m.serve()
}

// Tick reports the time, for a Wait.
func (m *Machine) Tick(now time.Duration) []Action {
	if m.phase != Pausing || now < m.wake {
		return nil
	}
	return m.beginWalk(now)
}

// Called is asked when another player sends a resuming Join to this
// player's standby port: it lost the host, and either elected this player
// or elected itself and asks whether this one still hears the host. It
// returns 0 if this player goes along (with a Cut of its connection to
// the room, if it has one), else why the caller is refused.
//
// A player that still hears its host does not follow another that lost
// it: RefuseNotHosting. Neither does one on its way to another
// successor's room, or that came there within the handover limit:
// RefuseMoving (the game moved to a successor the caller cannot reach).
// The caller walks the list again.
func (m *Machine) Called(now time.Duration) (wire.RefuseReason, []Action) {
	alive := now-m.heard < HostHeardRecently
	moved := m.movedAt != 0 && now-m.movedAt < Limit
	switch {
	case m.walk.rejoining() && (m.phase == Walking || m.phase == Pausing || m.phase == Joining):
		return wire.RefuseNotHosting, nil // it found the host there: the game goes on with it
	case m.phase == Joining || alive && moved:
		return wire.RefuseMoving, nil
	case m.phase == Hosting || m.phase == Over || alive:
		return wire.RefuseNotHosting, nil
	case m.phase == Following && m.net && !m.cut:
		return 0, m.cutWith(ErrHandover)
	case m.phase == Following && !m.net:
		return wire.RefuseNotHosting, nil // in-process with its room: there is no host to lose
	}
	m.walk.cameHere() // the caller lost the host too
	return 0, nil     // ... as this player, which is on its way
}

// ProbeTargets returns the standby ports to probe in this round: while
// this player hosts, the successors it passed over first (one that
// answers leads the game too), then every other candidate in the list
// while a game runs (the room learns who reaches whom). A room deserted
// by a majority of the members probes the successors listed while they
// played in it, in the list's order (the order they walked); an owner
// probes nothing else.
func (m *Machine) ProbeTargets(v View) []wire.Successor {
	lost := m.phase == Hosting && m.hosting == deserted
	if m.role == owner && !lost {
		return nil // no standby to report reach for: it probes only to find its players
	}
	var out []wire.Successor
	if m.phase == Hosting && m.hosting != yielding {
		out = append(out, m.earlier...)
	}
	list := v.List.List
	switch {
	case lost:
		list = m.list // the room lists no one away from it: the successors from before
	case !v.Playing && !v.Lobby:
		return out
	}
	for _, c := range list {
		if int(c.Slot) != v.Slot && int(c.Slot) < len(m.answered) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Probed reports a probe's answer. While this player hosts, an earlier
// successor that answers is given the game (Yield), once: every player
// walks the list in the same order, so two rooms never both give way.
func (m *Machine) Probed(now time.Duration, c wire.Successor, ok bool) []Action {
	if ok && int(c.Slot) < len(m.answered) {
		m.answered[c.Slot], m.everOK[c.Slot] = now, true
	}
	m.countProbe(c, ok)
	if !ok || m.phase != Hosting || m.hosting == yielding {
		return nil
	}
	if m.hosting == deserted {
		// The majority of the members is away, and a candidate's standby
		// answers: it runs their room, or follows the one that does.
		// ProbeTargets names the candidates in the list's order, the order
		// the others walked: the first to answer is where they went.
		m.hosting, m.earlier = yielding, nil
		return []Action{{Kind: Yield, Cand: c}}
	}
	for _, e := range m.earlier {
		if e == c {
			m.hosting, m.earlier = yielding, nil
			return []Action{{Kind: Yield, Cand: c}}
		}
	}
	return nil
}

// Yielded reports the end of a Yield: ok if the room told its players to
// go. This player then follows its own room (over the pipe) until the
// room's word moves it on, as the others.
func (m *Machine) Yielded(now time.Duration, ok bool) {
	if ok && m.phase == Hosting && m.role != owner { // an owner goes on its room's word too, from the list it remembers (Lost)
		m.phase, m.since = Following, now
	}
}

// Reach returns the slots whose standby answered a probe within
// ProbeMemory, among the list's candidates (wire.Standby.Reach).
func (m *Machine) Reach(now time.Duration, v View) uint8 {
	var reach uint8
	for _, c := range v.List.List {
		s := int(c.Slot)
		if s == v.Slot || s >= len(m.answered) || !m.everOK[s] {
			continue
		}
		if now-m.answered[s] < ProbeMemory {
			reach |= 1 << s
		}
	}
	return reach
}
