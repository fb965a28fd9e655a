package room

import (
	"crypto/sha256"
	"math/bits"
	"net/netip"
	"slices"
	"strconv"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Host migration, the room's side (docs/ARCHITECTURE.md §2, "When the
// host goes away").
//
// While a game runs, every player that could host it says where (Standby:
// a UDP port, its host key, and which other players' ports answered its
// probes). The room orders them (Successors: most links both ends confirm
// first, lowest slot first; see successors) and tells everyone, with a hash of
// every slot's token so that a successor can recognise the players without
// knowing their tokens. When the room falls silent, or says it is going
// (LeaveHandover), the first live successor opens a room of its own from
// its confirmed world (Resume) and the others join it with their tokens.

// standby is what a slot's player said about hosting. Its address is not
// kept: it is the connection's own, asked of the host (Config.AddrOf) each
// time it is used, so the entry follows the session where it moves.
type standby struct {
	m     *member // the connection that said it; stale once the slot's member changes
	port  uint16
	key   [16]byte
	reach uint8
	since time.Duration // when the slot first claimed this port and key: the earlier claim keeps the port
	// probed and outside: see reach.go.
	probed  uint8
	outside netip.AddrPort // the address its router mapped for it (outsideAddr; zero: none)
}

// successorsEvery is how often the successor list is repeated when it has
// not changed (it is sent at once when it does).
const successorsEvery = 5 * time.Second

// successorsCheck is how often a running room's Tick looks for a change in
// its successors that no event announced. The events that change them
// announce it themselves: a Standby, a new listing, a roster change
// (broadcastSetup), a player taking its slot back.
const successorsCheck = 250 * time.Millisecond

// HandoverWait is how long a resumed room waits for the players it
// expects before it plays on without them (they may still come back, as
// after any disconnect, while their slot is held).
const HandoverWait = time.Second

// TokenHash is how a successor's room knows a player's token without
// holding it: the first 16 bytes of its SHA-256.
func TokenHash(token [16]byte) [16]byte {
	sum := sha256.Sum256(token[:])
	return [16]byte(sum[:16])
}

func (r *Room) onStandby(m *member, sb wire.Standby) {
	if m.slot < 0 {
		r.drop(DropSpoof) // spectators never host
		return
	}
	// A standby is bound to the session that names it: its address is the
	// connection's own, and a port another slot's player holds there is
	// refused. Players behind one address (one NAT, one machine) would
	// otherwise list themselves at each other's ports, and the others'
	// handover would go to a player that is not the one they elected. The
	// key is not the room's to check (two windows of one install share
	// theirs): a port that cannot prove the key it is listed with fails
	// every probe and dial, and goes last (successors).
	if sb.Port != 0 {
		addr := r.addrOf(m)
		for j := range r.slots {
			if j != m.slot && r.claims(j, addr, sb.Port) {
				r.drop(DropSpoof)
				return
			}
		}
	}
	prev := &r.standby[m.slot]
	since := r.now
	if prev.m == m && prev.port == sb.Port && prev.key == sb.Key {
		since = prev.since
	}
	r.standby[m.slot] = standby{m: m, port: sb.Port, key: sb.Key, reach: sb.Reach, since: since, probed: sb.Probed | sb.Reach}
	r.standby[m.slot].outside = r.outsideAddr(m, sb)
	r.updateSuccessors(false)
}

// addrOf returns the IP address m's connection comes from now (none for
// an in-process one), unmapped and without zone.
func (r *Room) addrOf(m *member) netip.Addr {
	if r.cfg.AddrOf == nil {
		return netip.Addr{}
	}
	return r.cfg.AddrOf(m.conn).Unmap().WithZone("")
}

// standbyOf returns slot i's standby entry if it is its current player's
// and names a port, with the address it is at.
func (r *Room) standbyOf(i int) (*standby, netip.Addr, bool) {
	s, sb := &r.slots[i], &r.standby[i]
	if sb.m == nil || sb.m != s.m || !sb.m.connected || sb.port == 0 {
		return nil, netip.Addr{}, false
	}
	addr := r.addrOf(sb.m)
	return sb, addr, addr.IsValid()
}

// claims reports whether slot i's current standby entry holds the port
// port at addr.
func (r *Room) claims(i int, addr netip.Addr, port uint16) bool {
	sb, at, ok := r.standbyOf(i)
	return ok && at == addr && sb.port == port
}

// successors returns the current successor list.
func (r *Room) successors() wire.Successors {
	out := wire.Successors{Game: r.game, Turn: r.nextTurn, Listing: r.listing}
	if n := min(len(r.cfg.Fallback), wire.MaxFallbackServers); n > 0 {
		out.Servers = r.cfg.Fallback[:n:n]
	}
	if !r.successionOpen() {
		return out
	}
	var cand uint8
	var addrs [game.MaxPlayers]netip.Addr
	for i := range r.slots {
		s := &r.slots[i]
		if _, addr, ok := r.standbyOf(i); ok && r.inSuccession(s) {
			cand |= 1 << i
			addrs[i] = addr
		}
	}
	// Two entries at one port (a session moved to the address another
	// player's port is at): the earlier claim is listed.
	for i := range r.slots {
		for j := range r.slots {
			if i == j || cand&(1<<i) == 0 || cand&(1<<j) == 0 {
				continue
			}
			a, b := &r.standby[i], &r.standby[j]
			same := addrs[i] == addrs[j] && a.port == b.port
			if same && (b.since < a.since || b.since == a.since && j < i) {
				cand &^= 1 << i
			}
		}
	}
	// A candidate's place comes from the links to the other candidates
	// that both ends confirm: the other's probe reached it and its own
	// probe reached the other. Its own Reach alone never raises it (a
	// link counts only with the other's word), and every confirmation it
	// withholds from another costs it that link as well: a player that
	// claims it reached nobody cannot push the others below itself. Most
	// links first, then lowest slot; confirmed (every link both ways)
	// candidates are thus first.
	var links [game.MaxPlayers]int
	n := bits.OnesCount8(cand)
	for i := range r.slots {
		if cand&(1<<i) == 0 {
			continue
		}
		for j := range r.slots {
			if j != i && cand&(1<<j) != 0 && r.standby[j].reach&(1<<i) != 0 && r.standby[i].reach&(1<<j) != 0 {
				links[i]++
			}
		}
	}
	// Before the links, what a majority can reach (majorityReaches): a
	// successor that a strict majority of the game's members, itself
	// among them, proved they reach comes before one they did not, which
	// is passed over unless no one better answers. Behind a NAT that
	// lets only the other way through (a guest with no port mapping), a
	// player reaches the others' ports and none reaches its own: the
	// players on the internet or with a mapping come first, so everyone
	// meets at one successor.
	// Last, flagged, those the others showed no majority can reach
	// (unreachable, reach.go): walks pass them over.
	reached := r.majorityReaches(cand)
	unreached := r.unreachable(cand) &^ reached
	for _, group := range []uint8{reached, cand &^ reached &^ unreached, unreached} {
		for want := n - 1; want >= 0; want-- {
			for _, i := range r.byNetReach(cand, group, links[:], want) {
				sb := &r.standby[i]
				out.List = append(out.List, wire.Successor{Slot: uint8(i), Addr: netip.AddrPortFrom(addrs[i], sb.port), Key: sb.key, Confirmed: want == n-1,
					Outside: r.outsideOf(i), Unreached: unreached&(1<<i) != 0})
			}
		}
	}
	for i := range r.slots {
		if s := &r.slots[i]; r.inSuccession(s) {
			out.Tokens[i] = r.tokenHash(i)
		}
	}
	return out
}

// majorityReaches returns the candidates (among cand) that a strict
// majority of the game's members can reach: the candidate itself and the
// other candidates whose Reach names it. Only the others' word counts for
// a candidate, so a player's own Reach never raises its place; a player
// that denies reaching another can pass it over only where no one else
// vouches for it (one way through a NAT looks the same).
func (r *Room) majorityReaches(cand uint8) uint8 {
	members := r.successionMembers()
	var out uint8
	for i := range r.slots {
		if cand&(1<<i) == 0 {
			continue
		}
		n := 1 // itself
		for j := range r.slots {
			if j != i && cand&(1<<j) != 0 && r.standby[j].reach&(1<<i) != 0 {
				n++
			}
		}
		if 2*n > members {
			out |= 1 << i
		}
	}
	return out
}

// tokenHash returns the hash of slot i's token, as a successor's room
// checks it (computed when the token is issued or taken over).
func (r *Room) tokenHash(i int) [16]byte {
	return r.slots[i].tokenHash
}

// updateSuccessors sends the successor list when it changed, or when
// force is set, or now and then.
func (r *Room) updateSuccessors(force bool) {
	if !r.successionOpen() {
		return
	}
	sc := r.successors()
	changed := !sameSuccessors(sc, r.lastSucc)
	if !changed && !force && r.now-r.lastSuccAt < successorsEvery {
		return
	}
	r.lastSucc, r.lastSuccAt = sc, r.now
	for _, m := range r.members {
		if m.slot >= 0 && m.connected {
			r.send(m.conn, sc)
		}
	}
}

func sameSuccessors(a, b wire.Successors) bool {
	if a.Game != b.Game || len(a.List) != len(b.List) || a.Tokens != b.Tokens || a.Listing != b.Listing || !slices.Equal(a.Servers, b.Servers) {
		return false
	}
	for i := range a.List {
		if a.List[i] != b.List[i] {
			return false
		}
	}
	return true
}

// SetListing tells the room the id its game is listed under on the LAN
// (wire.Successors.Listing): a successor lists the game under it. A new
// id is sent to the players at once.
func (r *Room) SetListing(id [8]byte) {
	if r.listing == id {
		return
	}
	r.listing = id
	r.updateSuccessors(false)
}

// Listing returns the id the room's game is listed under (zero: none).
func (r *Room) Listing() [8]byte { return r.listing }

// Successors returns the successor list the room would send now.
func (r *Room) Successors() wire.Successors { return r.successors() }

// HandOver ends the room's part in a running game whose players can carry
// it on: every member is told to go to the first successor (LeaveHandover)
// instead of that the game is over. It reports whether it did; with no
// successor it does nothing (the caller shuts the room down as usual).
func (r *Room) HandOver(now time.Duration, text string) bool {
	r.advance(now)
	if r.state == wire.StateSetup {
		return r.handOverLobby(text) // lobbyhandover.go
	}
	if r.state != wire.StateRunning || len(r.successors().List) == 0 {
		return false
	}
	sc := r.successors()
	if r.cfg.AddrOf != nil {
		// The players on this machine (the Host button's own, over a pipe:
		// no address) go with it by choice: they are no members of the
		// game the others carry on, so a guest left alone with such a
		// host plays on at once instead of waiting for its countdown.
		for i := range r.slots {
			if s := &r.slots[i]; s.life.staying() && s.m != nil && !r.addrOf(s.m).IsValid() {
				sc.Tokens[i] = [16]byte{}
			}
		}
	}
	r.giveAway(sc, wire.LeaveHandover, text, "the host left at turn "+itoa(r.nextTurn)+" and handed the game over")
	return true
}

// giveAway ends the room's part in a game that goes on elsewhere: every
// player gets the successor list sc first (spectators only the Leave),
// then every member a Leave with reason; the replay notes it and ends.
func (r *Room) giveAway(sc wire.Successors, reason wire.LeaveReason, text, note string) {
	r.lastSucc, r.lastSuccAt = sc, r.now
	for _, m := range r.members {
		if m.slot >= 0 && m.connected {
			r.send(m.conn, sc)
		}
		r.send(m.conn, wire.Leave{Reason: reason, Text: text})
	}
	if n, ok := r.rec.(Noter); ok {
		n.Note(note)
	}
	r.stopRecording(EndClosed, r.lastCompiled())
	r.state, r.gaveAway = wire.StateFinished, true
}

// keepsRoster reports whether the room gave its lobby or game to a
// successor (HandOver, Yield): a member whose connection ends then is on
// its way there, following the room's word, and its seat is not freed
// nor the roster sent again without it. The players still connected
// (their Leave in flight, or lost on a busy machine, so that they follow
// the silence instead) would take that roster to the successor: a
// successor that carries on a lobby from a roster without a guest holds
// no seat for it, and refuses its token (the lobby split in two).
func (r *Room) keepsRoster() bool { return r.gaveAway }

// Yield gives a running game this resumed room carries on to another
// successor that leads it too (two led at once after a partial network
// failure; the earlier in the list wins): every member is told to go
// there (a Successors naming it alone, then LeaveYield) and to catch up
// from its snapshot. It reports whether it did.
func (r *Room) Yield(now time.Duration, to wire.Successor, text string) bool {
	r.advance(now)
	if r.state != wire.StateRunning {
		return false
	}
	sc := r.successors()
	sc.List = []wire.Successor{to}
	r.giveAway(sc, wire.LeaveYield, text, "at turn "+itoa(r.nextTurn)+" another player led the game too; it went on there")
	return true
}

// Noter is a Recorder that can note what happened to the game besides its
// turns (a handover).
type Noter interface {
	Note(text string)
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// Handover is what a successor's room needs to carry a game on.
type Handover struct {
	Game     uint32
	Name     string // the room's name ("" keeps the successor's Config.Name)
	Revision uint32 // the old room's last setup revision: the new room's come after it
	Setup    game.Setup
	Names    [game.MaxPlayers]string // the cast, by slot
	Roster   []wire.Player           // the old room's roster (ids, colours, names)
	// Tokens are the hashes of the slots' tokens (wire.Successors.Tokens).
	Tokens [game.MaxPlayers][16]byte
	// Present are the slots still in the game; Expected those of them the
	// room waits for (HandoverWait at most) before it plays on: the
	// successors, who know where the game went. The rest are held vacant.
	Present, Expected uint8
	// Next is the first master turn the new room compiles: the successor
	// has executed every turn before it. Timing is in force for Next; a
	// change announced for later is Pending (zero At: none).
	Next         uint32
	K, Delay     uint8
	PendingAt    uint32
	PendingK     uint8
	PendingDelay uint8
	History      []wire.MasterTurn // the game's master turns before Next, oldest first (as many as the successor kept)
	NewHost      string            // the successor's name, for the replay's note
	// Host is the successor's slot: the player whose machine runs the new
	// room hosts it (hostSlot), not the lowest slot, and not the old host
	// when it rejoins. A slot not Present names no one.
	Host    uint8
	Listing [8]byte // the game's LAN listing id (wire.Successors.Listing)
	// Servers are the game's fallback servers (wire.Successors.Servers):
	// the resumed room sends them on, so the game can still move to one.
	// None keeps the room's Config.Fallback.
	Servers []wire.FallbackServer
}

// Resume returns a room that carries on a running game handed over by a
// room that went away: the same game, setup, slots, names and tokens, at
// turn h.Next. Players join it with their tokens (Join.Resuming); those
// whose game reaches h.Next go on from their own world with the master
// turns they lack, the others catch up from a snapshot.
func Resume(cfg Config, h Handover) *Room {
	if len(h.Servers) > 0 {
		cfg.Fallback = h.Servers
	}
	r := New(cfg)
	r.game = h.Game
	r.listing = h.Listing
	r.revision = h.Revision + 1
	r.setup = h.Setup
	r.cast = h.Names
	for _, p := range h.Roster {
		if int(p.Slot) < game.MaxPlayers {
			s := &r.slots[p.Slot]
			s.id, s.name, s.colour = p.ID, p.Name, p.Colour
		}
	}
	for i := range r.slots {
		s := &r.slots[i]
		if h.Present&(1<<i) == 0 {
			*s = slot{}
			continue
		}
		s.life.seat()
		s.life.begin()
		s.ready = true
		s.hashOnly, s.tokenHash = true, h.Tokens[i]
		if s.name == "" {
			s.name = h.Names[i]
		}
		s.ack = h.Next
		if h.Expected&(1<<i) == 0 {
			s.life.vacate(0) // its drop time is set at the room's first tick (tickResumed)
		}
	}
	if int(h.Host) < game.MaxPlayers && h.Present&(1<<h.Host) != 0 {
		r.owner, r.ownerID = int(h.Host), r.slots[h.Host].id
	}
	r.state, r.child = wire.StateRunning, wire.ChildIterating
	r.nextTurn = h.Next
	r.cur = timing{at: h.Next, k: max(h.K, 1), delay: max(h.Delay, 1)}
	if h.PendingAt > h.Next {
		r.pending, r.hasPending = timing{at: h.PendingAt, k: h.PendingK, delay: h.PendingDelay}, true
	}
	r.horizon = h.Next + uint32(r.cur.delay)
	r.resumedAt = h.Next
	r.handed, r.resumed = true, true
	// The last turns before Next, for players behind: as many as the
	// master ring holds.
	r.historyFrom = h.Next
	for _, mt := range h.History {
		if mt.Turn >= h.Next || h.Next-mt.Turn > masterRing {
			continue
		}
		dst := &r.master[mt.Turn%masterRing]
		events := dst.Events[:0]
		*dst = mt
		dst.Events = append(events, mt.Events...)
		r.historyFrom = min(r.historyFrom, mt.Turn)
	}
	r.startRecording()
	if r.rec != nil {
		for i := range h.History {
			r.rec.Turn(&h.History[i], TurnLog{})
		}
		if n, ok := r.rec.(Noter); ok {
			n.Note("handed over to " + h.NewHost + " at turn " + itoa(h.Next))
		}
	}
	r.settleChild()
	return r
}

// resumeJoin admits a player coming back to a resumed game with its token:
// in place if its game reaches the room's turns (it gets the master turns
// from its own next one), otherwise from a snapshot. ok is false if the
// token is not one of the game's.
func (r *Room) resumeJoin(conn ConnID, j wire.Join) bool {
	slotIdx := -1
	for i := range r.slots {
		if s := &r.slots[i]; s.life.taken() && s.matches(j.Token) {
			slotIdx = i
			break
		}
	}
	if slotIdx < 0 {
		return false
	}
	s := &r.slots[slotIdx]
	s.token, s.hashOnly = j.Token, false
	m := r.reclaimSlot(conn, slotIdx)
	// In place only if every turn the player executed is one this room
	// holds as the old room made it: not past the turn the room resumed
	// at (from there on it compiles its own), not before its history.
	inPlace := s.life.inGame() && j.Resuming && j.Resume <= r.resumedAt && j.Resume >= r.historyFrom
	if !inPlace {
		r.catchUp(m)
		return true
	}
	m.started, m.inPlace = true, true // it plays on from its own world: no Start
	m.masterAck, m.sentTo, m.resentTo = j.Resume, j.Resume, j.Resume
	r.welcomeResumed(m)
	if s.life.play() {
		r.queueEvent(wire.RoomEvent{Kind: wire.EventJoin, Slot: uint8(slotIdx)})
	}
	r.statusDirty = true
	r.broadcastSetup()
	r.updateSuccessors(true)
	r.sendMasters(false)
	r.compile()
	return true
}

// matches reports whether token is the slot's.
func (s *slot) matches(token [16]byte) bool {
	if s.hashOnly {
		return token != [16]byte{} && TokenHash(token) == s.tokenHash
	}
	return s.token == token
}

// tickResumed stops waiting, once HandoverWait is over, for the expected
// players who have not come: they are held vacant like any lost player.
func (r *Room) tickResumed() {
	if !r.resumed {
		return
	}
	if r.awaitUntil == 0 {
		// The room's first tick: its clock starts here.
		r.awaitUntil = r.now + HandoverWait
		for i := range r.slots {
			r.slots[i].life.holdUntil(r.now + r.cfg.VacancyTimeout)
		}
	}
	if r.now < r.awaitUntil && !r.allExpectedHere() {
		return
	}
	r.resumed = false
	for i := range r.slots {
		if s := &r.slots[i]; s.life.waitedOn() && s.m == nil {
			r.holdSlot(i)
		}
	}
	r.compile()
}

// allExpectedHere reports whether every slot the room waits for has its
// player back.
func (r *Room) allExpectedHere() bool {
	for i := range r.slots {
		if s := &r.slots[i]; s.life.waitedOn() && s.m == nil {
			return false
		}
	}
	return true
}

// welcomeResumed answers a player that resumes in place (again, if its
// Join was repeated).
func (r *Room) welcomeResumed(m *member) {
	s := &r.slots[m.slot]
	r.send(m.conn, wire.Welcome{RoomID: r.cfg.RoomID, Slot: uint8(m.slot), Token: s.token, State: r.state, Resumed: true})
	r.send(m.conn, r.setupState())
}
