package migrate

import (
	"crypto/sha256"
	"encoding/binary"
	"time"

	"rockstep/net/wire"
)

// A server as the last successor (docs/ARCHITECTURE.md, "When the host
// goes away"). The host's known community servers travel with the game
// (wire.Successors.Servers). When no player can carry the game on, it
// moves to a room on the first of them that answers, with every player's
// token: at once when the list has no successor a strict majority of the
// members can reach (every candidate flagged Unreached: every player
// reads the same list, so every player goes), or when the walks found no
// successor within the handover limit (Limit). Every player asks the
// server for the room under the same key (MoveKey), and the server opens
// one room for it: the first ask opens it, the later ones are sent to it
// (net/host). The server's room holds the game by the majority rule as
// any room does.

// GoesToServer reports whether the players who lose the room that named
// sc go to its first server at once (advance): it names a server, and no
// successor other than slot me (the player whose room it is, if it is in
// the list) is one a strict majority reaches, with at least one other to
// carry the game there. The window of the player whose room it is keeps
// where its Rejoin finds the game after its crash (ui, rejoinOnServer).
func GoesToServer(sc wire.Successors, me int) bool {
	others := 0
	for _, c := range sc.List {
		if int(c.Slot) == me {
			continue
		}
		if !c.Unreached {
			return false
		}
		others++
	}
	return len(sc.Servers) > 0 && others > 0
}

// OnServer is the host slot Moves and Announced give once the game moved
// to a room on a community server (no player hosts it).
const OnServer = -2

// serverSlot marks the successor a Join goes to when it is the server's
// room (Action.Cand.Slot of the Join after a Move).
const serverSlot = 0xFE

// MoveKey is the key under which every player of the game asks a server
// for its room (wire.MoveGame.Key): made from the game's number and its
// players' token hashes, which every player is sent alike and nobody
// outside the game knows.
func MoveKey(sc wire.Successors) [16]byte {
	h := sha256.New()
	h.Write([]byte("rockstep move v1"))
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], sc.Game)
	h.Write(b[:])
	for i := range sc.Tokens {
		h.Write(sc.Tokens[i][:])
	}
	return [16]byte(h.Sum(nil)[:16])
}

// moveTo asks the client to take the game to server i (Move), or, past
// the last, pauses the walk.
func (m *Machine) moveTo(i int) []Action {
	if i >= len(m.servers) {
		m.walk.serversDone()
		return nil
	}
	m.walk.dialServer(i)
	var expected uint8
	for _, c := range m.list {
		expected |= 1 << (c.Slot & 7)
	}
	return []Action{{Kind: Move, Server: m.servers[i], Key: m.moveKey, Expected: expected}}
}

// serverDialled is Dialled for a Move: the server's connection is open and
// the game's room asked for (ok), and the session joins it there; or the
// next server is tried, and after the last the walks go on.
func (m *Machine) serverDialled(now time.Duration, ok bool) []Action {
	i := m.walk.server
	if !ok {
		if next := m.moveTo(i + 1); next != nil {
			return next
		}
		if now >= m.deadline {
			return m.giveUp(ErrNoSuccessor)
		}
		return m.pause(now)
	}
	m.walk.serversDone()
	if !m.walk.afterFirstMove() {
		m.movedAt = now
	}
	m.server = m.servers[i]
	m.joining = wire.Successor{Slot: serverSlot}
	m.phase, m.net = Joining, true
	return []Action{{Kind: Join, Cand: m.joining}}
}

// Server returns the community server the game moved to, and whether it
// did (since the last move).
func (m *Machine) Server() (wire.FallbackServer, bool) {
	return m.server, m.host == OnServer && m.phase != Over
}
