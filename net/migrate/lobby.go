package migrate

// The lobby survives its host (docs/ARCHITECTURE.md, "When the host goes
// away"). A player in a room's lobby (View.Lobby) follows its host as in a
// game: the room's silence (its pings come four times a second) is said
// after SilentAfter, when the old host is probed; at the transport's
// timeout (3 s: not PlaySilence, for a lobby frees the seat of a guest it
// lost, and a guest whose own machine stalled a second and a half must not
// leave a host that is there) the successor list is walked as in a game, and
// the first successor reached carries the lobby on (Serve: the client
// opens a lobby from the session's, room.ResumeLobby). The others join it
// with their tokens. A lobby plays nothing, so no majority is needed for
// it to be the room: the move is announced as soon as this player's own
// session is back in the lobby it opened (a lobby held for players who
// have not come starts no game until they are back, or the host sends
// them away).

// hostsLobby moves a lobby this player opened from opened to leading once
// its own session is in it, and reports whether v is a lobby's.
func (m *Machine) hostsLobby(v View) bool {
	if !v.Lobby {
		return false
	}
	if m.hosting == opened && !v.Migrating {
		m.hosting = leading
	}
	return true
}
