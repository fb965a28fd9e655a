package host

import (
	"crypto/rand"
	"math/bits"
	"net/netip"
	"time"

	"rockstep/game"
	"rockstep/internal/peertext"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// A server as the last successor (docs/ARCHITECTURE.md, "When the host
// goes away"). A game whose players can reach none of each other moves
// to a room on a community server: each player connects, sends MoveGame
// with the game's move key (net/migrate.MoveKey, the same on every
// player), then its resuming Join on the same connection. The first ask
// opens the room (room.Resume: the game's setup, roster and token hashes,
// at the asker's turn), within the limits and pace of a CreateRoom; the
// later asks with that key are sent to the same room, so the players meet
// in one room, never two. Each player is taken in by its token, as at a
// successor: in place if its game reaches the room's turn, else from a
// snapshot under the digest rule; and the room plays only with a strict
// majority of the game's members, as every room does.

// movedNotice is how the server's room names the move in its replay.
const movedNotice = "a community server"

// onMoveGame answers a MoveGame on connection id: the room for its key
// (opened now if there is none), whose id the connection's resuming Join
// is routed to, or a refusal.
func (h *Host) onMoveGame(id room.ConnID, cn *conn, now time.Duration, m wire.MoveGame) {
	cn.askedMove, cn.moved = true, 0 // until the room is found or made: a Join is refused
	if cn.addr.IsValid() && !cn.creates.Take(now, createPerS, createBurst) {
		h.drop(dropHostCreateRate)
		return
	}
	if rid, ok := h.moves[m.Key]; ok && h.rooms[rid] != nil {
		cn.moved = rid
		h.reply(id, wire.RoomCreated{RoomID: rid, Secret: h.rooms[rid].secret})
		return
	}
	if cn.pipe == nil && !h.keyAllowed(m.RoomKey) {
		h.refused[refusedRoomKey]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseRoomKey, Text: roomKeyText})
		return
	}
	if !movable(m) {
		h.dropped[dropHostMalformed]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseNoRoom, Text: "that is no game to carry on"})
		return
	}
	maker := makerOf(cn)
	if !h.mayOpen(id, cn, maker) {
		return
	}
	secret, ok := h.newSecret()
	if !ok {
		h.refused[refusedFull]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseFull, Text: "the server could not make a secret for the room; try again"})
		return
	}
	rid := wire.SecretRoom(secret) // unlisted: only the game's players come
	name := peertext.Clean(m.State.Name, wire.MaxName)
	if name == "" {
		name = h.cfg.Name
	}
	rc := h.cfg.Room
	rc.RoomID, rc.Name, rc.Random = rid, name, rand.Reader
	rc.Hosts = h.hostsOf(rid) // nobody's: the lowest non-vacant slot stands in (room.hostSlot)
	rc.OnRepair = func(n room.RepairNote) { h.logRepair(rid, n) }
	if h.rec != nil {
		rc.NewRecorder = func(_ game.Setup, name string) room.Recorder { return h.rec.newRecorder(rid, name) }
	}
	rc.Fallback = nil // the game is on a server now
	h.rooms[rid] = &hosted{r: movedRoom(rc, m), idleAt: now, unlisted: true, secret: secret, moveKey: m.Key, askedBy: cn.addr.Addr()}
	h.order = append(h.order, rid)
	h.countOpened(rid, cn, maker)
	h.moves[m.Key] = rid
	cn.moved = rid
	h.log.Info("room opened for a moved game", "room", rid, "name", name, "turn", m.Next, "lobby", lobbyMove(m))
	h.reply(id, wire.RoomCreated{RoomID: rid, Secret: secret})
}

// movedRoom is the room that carries m on with the settings rc: a game
// resumed at its turn (room.Resume), or a lobby resumed as it stood
// (room.ResumeLobby), no bigger than it was.
func movedRoom(rc room.Config, m wire.MoveGame) *room.Room {
	if !lobbyMove(m) {
		return room.Resume(rc, handoverOfMove(m))
	}
	if n := int(m.State.MaxSlots); n > 0 && n < rc.MaxPlayers {
		rc.MaxPlayers = n // the seats the lobby offered
	}
	return room.ResumeLobby(rc, lobbyHandoverOfMove(m))
}

// lobbyMove reports whether m moves a lobby, not a running game: it has
// no timing (K zero), as no game runs yet.
func lobbyMove(m wire.MoveGame) bool { return m.K == 0 }

// makerOf returns the network a connection counts against (invalid for a
// pipe).
func makerOf(cn *conn) (p netip.Prefix) {
	if cn.addr.IsValid() {
		return makerNet(cn.addr.Addr())
	}
	return p
}

// movable reports whether m names a game a room can carry on: some slot
// still in it, each with a token hash, the awaited among them, a timing.
func movable(m wire.MoveGame) bool {
	if m.Present == 0 || m.Expected&^m.Present != 0 || m.Key == ([16]byte{}) {
		return false
	}
	for i := range m.Tokens {
		if m.Present&(1<<i) != 0 && m.Tokens[i] == ([16]byte{}) {
			return false
		}
	}
	setup := m.State.Setup
	if lobbyMove(m) {
		// A lobby's setup counts no players yet (the room fills them in
		// at the start), and it has no turn nor timing.
		setup.Players = uint8(bits.OnesCount8(m.Present))
		return setup.Validate() == nil && m.Next == 0 && m.Delay == 0 && m.PendingAt == 0
	}
	if setup.Validate() != nil {
		return false
	}
	return m.K > 0 && m.K <= maxMoveK && m.Delay > 0 && m.Delay <= maxMoveDelay
}

// maxMoveK and maxMoveDelay bound a moved game's timing (ticks per turn,
// turns of input delay): far above any the rooms choose.
const (
	maxMoveK     = 16
	maxMoveDelay = 60
)

// lobbyHandoverOfMove is what the server's room needs to carry a moved
// lobby on (room.ResumeLobby): its setup, its roster with the ready marks
// as the players pressed them, a seat held for each token, and its last
// chat lines for a player who comes back on a new program. Nobody
// hosts it (Host: no slot): the lowest seat whose player is there stands
// in, as in the server's room of a moved game.
func lobbyHandoverOfMove(m wire.MoveGame) room.LobbyHandover {
	roster := movedRoster(m.State.Players)
	var tokens [game.MaxPlayers][16]byte
	for i := range tokens {
		if m.Present&(1<<i) != 0 {
			tokens[i] = m.Tokens[i]
		}
	}
	chat := make([]wire.Chat, 0, len(m.Chat))
	for _, c := range m.Chat {
		c.Text = peertext.Clean(c.Text, wire.MaxChat) // a client's text, shown in every lobby
		chat = append(chat, c)
	}
	return room.LobbyHandover{
		Game: m.State.Game, Revision: m.State.Revision, Setup: m.State.Setup, MaxSlots: m.State.MaxSlots,
		Roster: roster, Tokens: tokens, Chat: chat, Host: wire.SpectatorSlot,
	}
}

// movedRoster is a moved room's roster from the one its asker sent: the
// names cleaned (a client's text, shown in every lobby), nobody hosting
// or connected until they come.
func movedRoster(ps []wire.Player) []wire.Player {
	roster := make([]wire.Player, 0, len(ps))
	for _, p := range ps {
		p.Name = peertext.Clean(p.Name, wire.MaxName)
		p.Host, p.Connected = false, false
		roster = append(roster, p)
	}
	return roster
}

// handoverOfMove is what the server's room needs to carry the moved game
// on (room.Resume). It keeps no master history: a player whose game is
// not at the room's turn catches up from a snapshot.
func handoverOfMove(m wire.MoveGame) room.Handover {
	roster := movedRoster(m.State.Players)
	for i := range roster {
		roster[i].Ready = false // a game's marks: the rematch lobby's are pressed anew
	}
	var names [game.MaxPlayers]string
	for i, n := range m.Names {
		names[i] = peertext.Clean(n, wire.MaxName)
	}
	hd := room.Handover{
		Game: m.State.Game, Revision: m.State.Revision, Setup: m.State.Setup, Names: names, Roster: roster,
		Tokens: m.Tokens, Present: m.Present, Expected: m.Expected,
		Next: m.Next, K: m.K, Delay: m.Delay, NewHost: movedNotice, Host: wire.SpectatorSlot,
	}
	if m.PendingAt > m.Next {
		hd.PendingAt, hd.PendingK, hd.PendingDelay = m.PendingAt, max(m.PendingK, 1), max(m.PendingDelay, 1)
	}
	return hd
}
