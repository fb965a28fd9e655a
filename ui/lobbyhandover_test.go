package ui

import (
	"testing"
	"time"

	"rockstep/net/wire"
)

// TestLobbyHandoverWords: a lobby whose host fell silent says so; once
// the room moved it says who hosts, once (not for a move before the lobby
// opened); and a room that kept its old host's name says who hosts it.
func TestLobbyHandoverWords(t *testing.T) {
	roster := []wire.Player{{Slot: 0, Name: "Ada"}, {Slot: 1, Name: "Bob", Host: true}, {Slot: 2, Name: "Cy"}}
	nv := &netView{slot: 2, setup: wire.SetupState{Name: "Ada", Players: roster}, mover: -1}

	if got := lobbyHostLine(nv); got != "" {
		t.Errorf("a lobby that speaks: %q, want nothing", got)
	}
	nv.lobbyQuiet = 600 * time.Millisecond
	if got := lobbyHostLine(nv); got != "Waiting for the host… (no word from it)" {
		t.Errorf("a silent lobby: %q", got)
	}

	told := 0
	if got := lobbyMovedLine(nv, &told); got != "" {
		t.Errorf("no move yet: %q", got)
	}
	nv.moves, nv.mover = 1, 1
	if got := lobbyMovedLine(nv, &told); got != "The host left: Bob hosts the room now." {
		t.Errorf("after the move: %q", got)
	}
	if got := lobbyMovedLine(nv, &told); got != "" {
		t.Errorf("the same move again: %q, want it said once", got)
	}
	nv.moves, nv.mover = 2, 2
	if got := lobbyMovedLine(nv, &told); got != "The host left: you host the room now." {
		t.Errorf("the room moved to us: %q", got)
	}
	rematch := 0 // a lobby opened after a game that moved: old news
	if got := lobbyMovedLine(nv, &rematch); got != "" {
		t.Errorf("a lobby opened after the moves: %q, want nothing", got)
	}

	nv.setup.Name = "Ada’s game"
	if got := lobbyTitle(nv); got != "Ada’s game · hosted by Bob" {
		t.Errorf("title of Ada's room hosted by Bob: %q", got)
	}
	nv.setup.Players = []wire.Player{{Slot: 1, Name: "Bob", Host: true}, {Slot: 2, Name: "Cy"}}
	if got := lobbyTitle(nv); got != "Ada’s game · hosted by Bob" {
		t.Errorf("title of Ada's room hosted by Bob after Ada left it: %q", got)
	}
	nv.setup.Players = roster
	nv.setup.Name = "Friday night"
	if got := lobbyTitle(nv); got != "Friday night" {
		t.Errorf("title of a room named after no player: %q", got)
	}
	nv.setup.Name = "Bob’s game"
	if got := lobbyTitle(nv); got != "Bob’s game" {
		t.Errorf("title of Bob's room hosted by Bob: %q", got)
	}
}

// TestLobbySeatKept: the seat of a player who hosts its lobby here is kept
// on disk once a successor is named for that lobby (the lobby goes on
// there if this machine crashes); a guest's, or one with no successor, is
// not.
func TestLobbySeatKept(t *testing.T) {
	succ := wire.Successors{Game: 3, List: []wire.Successor{{Slot: 1}}}
	host := netView{phase: phaseLobby, roomHere: true, slot: 0, token: [16]byte{9}, setup: wire.SetupState{Game: 3}, succ: succ}
	tests := []struct {
		name string
		mod  func(v *netView)
		want bool
	}{
		{"the host, a successor named", func(*netView) {}, true},
		{"a guest", func(v *netView) { v.roomHere = false }, false},
		{"no successor", func(v *netView) { v.succ = wire.Successors{Game: 3} }, false},
		{"a list of another game", func(v *netView) { v.succ.Game = 2 }, false},
		{"playing (keepSession's other case)", func(v *netView) { v.phase = phasePlaying }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := host
			tc.mod(&v)
			if got := lobbySeatKept(&v); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHostLeaveWords: a host leaving a lobby with a successor named is
// told the room goes on with that player; with none, that it closes.
func TestHostLeaveWords(t *testing.T) {
	roster := []wire.Player{{Slot: 0, Name: "Ada", Host: true}, {Slot: 1, Name: "Bo"}}
	nv := &netView{phase: phaseLobby, slot: 0, setup: wire.SetupState{Game: 2, Players: roster}}
	if title, body, _ := hostLeaveWords(nv); title != "Close your game?" || body != "Everyone in it leaves the room too." {
		t.Errorf("no successor: %q %q", title, body)
	}
	nv.succ = wire.Successors{Game: 2, List: []wire.Successor{{Slot: 1}}}
	if title, body, button := hostLeaveWords(nv); title != "Leave your room?" || body != "It goes on without you: Bo hosts it." || button != "Leave" {
		t.Errorf("Bo named: %q %q %q", title, body, button)
	}
	nv.succ.Game = 1 // the list of the last game, not this lobby's
	if title, _, _ := hostLeaveWords(nv); title != "Close your game?" {
		t.Errorf("another game's list: %q", title)
	}
}

// TestLobbyHeldWords: a seat a lobby holds for a player who has not come
// back after its host went away says how long it is held; the host reads
// that Start plays without them, a guest that the lobby waits.
func TestLobbyHeldWords(t *testing.T) {
	roster := []wire.Player{{Slot: 0, Name: "Bea"}, {Slot: 1, Name: "Bo", Host: true, Connected: true}, {Slot: 2, Name: "Cy", Connected: true}}
	nv := &netView{phase: phaseLobby, slot: 2, setup: wire.SetupState{Players: roster},
		status: wire.RoomStatus{State: wire.StateSetup, Vacant: 0b001, VacancyMs: 23400}}
	if secs, ok := lobbyHeldSecs(nv, 0); !ok || secs != 24 {
		t.Errorf("Bea's seat: %d s (%v), want 24 s held", secs, ok)
	}
	if _, ok := lobbyHeldSecs(nv, 2); ok {
		t.Error("Cy's seat, there, reads as held")
	}
	if got := lobbyHeldHint(nv); got != "Waiting 24 s for Bea to come back." {
		t.Errorf("a guest's hint: %q", got)
	}
	nv.host, nv.slot = true, 1
	if got := lobbyHeldHint(nv); got != "Waiting 24 s for Bea: Start plays without them." {
		t.Errorf("the host's hint: %q", got)
	}
	nv.status = wire.RoomStatus{State: wire.StateSetup}
	if got := lobbyHeldHint(nv); got != "" {
		t.Errorf("nothing held: %q", got)
	}
}

// TestApartLineUnfound: a side without a majority says whom it waits for;
// once its search for the others' game found nobody, it says so too.
func TestApartLineUnfound(t *testing.T) {
	who := []string{"Bea", "Cy"}
	if got := apartLine(who, 24, false); got != "lost contact with Bea and Cy: waiting 24 s for them" {
		t.Errorf("searching: %q", got)
	}
	if got := apartLine(who, 21, true); got != "lost contact with Bea and Cy: waiting 21 s for them · they do not answer: is your network down?" {
		t.Errorf("found nobody: %q", got)
	}
}
