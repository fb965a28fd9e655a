package ui

import (
	"fmt"
	"strings"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/wire"
)

// The lobby's words when its host goes away (docs/ARCHITECTURE.md, "When
// the host goes away"): the silence at once, then who hosts; and, since
// the room keeps its name when it moves, who hosts it beside the name.

// lobbyHostLine is the lobby's hint while the room says nothing (its pings
// come four times a second): "" while it speaks.
func lobbyHostLine(nv *netView) string {
	if nv.lobbyQuiet >= lockstep.SilentAfter {
		return "Waiting for the host… (no word from it)"
	}
	return ""
}

// lobbyMovedLine is what the lobby says once when the room moved to a
// successor since it last told: "" if there is nothing new. told is one
// more than the moves it knew of (0: none seen yet: the moves before the
// lobby opened, a game's, are not news here).
func lobbyMovedLine(nv *netView, told *int) string {
	if *told == 0 || nv.moves+1 <= *told {
		*told = max(*told, nv.moves+1)
		return ""
	}
	*told = nv.moves + 1
	if nv.mover == migrate.OnServer {
		return client.MovedText(nv.server)
	}
	if nv.mover == nv.slot {
		return "The host left: you host the room now."
	}
	return "The host left: " + nv.playerName(nv.mover) + " hosts the room now."
}

// lobbyTitle is the lobby's heading: the room's name, and who hosts it
// when the name is another player's ("Ada’s game", the Host button's,
// kept when the room moved to Bob: "Ada’s game · hosted by Bob"). Every
// screen reads it from the roster, so they say the same.
func lobbyTitle(nv *netView) string {
	name := nv.setup.Name
	host, other := "", false
	for _, p := range nv.setup.Players {
		switch {
		case p.Host:
			host = p.Name
		case p.Name != "" && strings.HasPrefix(name, p.Name):
			other = true
		}
	}
	// A Host button's name ("Ada’s game") is a player's even once that
	// player left (its host handed the lobby on and went).
	other = other || strings.HasSuffix(name, "’s game")
	if other && host != "" && !strings.HasPrefix(name, host) {
		return name + " · hosted by " + host
	}
	return name
}

// lobbySeatKept reports whether this player's seat in its lobby is kept on
// disk as a game's is (keepSession): the player hosts the room here and a
// successor is named, so that if this machine crashes the lobby goes on
// there, with this seat held for its token, and Rejoin on the main menu
// takes it back. A guest's seat is not kept: a lobby frees the seat of a
// guest whose connection it lost.
func lobbySeatKept(nv *netView) bool {
	return nv.phase == phaseLobby && nv.roomHere && nv.slot >= 0 && nv.token != ([16]byte{}) &&
		len(nv.succ.List) > 0 && nv.succ.Game == nv.setup.Game
}

// hostLeaveWords is what the host is asked before it leaves its lobby:
// with a successor named for this lobby the room goes on there without
// it (room.Room.HandOver in setup), so the others do not leave; with
// none it closes for everyone.
func hostLeaveWords(nv *netView) (title, body, button string) {
	if nv.phase == phaseLobby && len(nv.succ.List) > 0 && nv.succ.Game == nv.setup.Game {
		next := int(nv.succ.List[0].Slot)
		name := nv.playerName(next)
		for _, p := range nv.setup.Players { // the lobby's roster, not the last game's names
			if int(p.Slot) == next {
				name = p.Name
			}
		}
		return "Leave your room?", "It goes on without you: " + name + " hosts it.", "Leave"
	}
	return "Close your game?", "Everyone in it leaves the room too.", "Close it"
}

// lobbyHeldSecs returns the seconds a lobby carried on after its host
// went away still holds slot's seat for a player who has not come back
// (the room's status: Vacant, VacancyMs), and whether it holds it.
func lobbyHeldSecs(nv *netView, slot int) (int, bool) {
	st := nv.status
	if nv.phase != phaseLobby || st.State != wire.StateSetup || slot < 0 || slot >= game.MaxPlayers || st.Vacant&(1<<slot) == 0 {
		return 0, false
	}
	return int((st.VacancyMs + 999) / 1000), true
}

// lobbyHeldHint is the lobby's hint while seats are held for players who
// have not come back: the host may start without them (their seats are
// released then), the others wait with it. "" when none is held.
func lobbyHeldHint(nv *netView) string {
	var names []string
	secs := 0
	for _, p := range nv.setup.Players {
		if n, ok := lobbyHeldSecs(nv, int(p.Slot)); ok && !p.Connected {
			names = append(names, p.Name)
			secs = n
		}
	}
	if len(names) == 0 {
		return ""
	}
	who := strings.Join(names, " and ")
	if nv.host {
		return fmt.Sprintf("Waiting %d s for %s: Start plays without them.", secs, who)
	}
	return fmt.Sprintf("Waiting %d s for %s to come back.", secs, who)
}
