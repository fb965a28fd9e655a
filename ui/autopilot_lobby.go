package ui

import (
	"fmt"
	"strings"
)

// The autopilot's steps about a lobby whose host goes away (the
// end-to-end test of a host killed in its lobby: docs/ARCHITECTURE.md,
// "When the host goes away"):
//
//	say WORDS          say a chat line in the lobby (WORDS with _ for spaces)
//	wait-successor     in the lobby, wait until a successor is named for it
//	wait-chat          in the lobby, wait until the chat shows a line; log
//	                   it: "autopilot: chat: …"
//	wait-lobby-moved   in the lobby, wait until it moved to a successor and
//	                   log it: "autopilot: lobby moved: …" (lobbyLine)
//	rejoin-lobby       press Rejoin on the main menu and wait until back in
//	                   the lobby; log "autopilot: lobby back: …" (lobbyLine)
//	log-room           log the lobby as lobbyLine says it
var lobbySteps = map[string]int{"say": 1, "wait-successor": 0, "wait-chat": 0, "wait-lobby-moved": 0, "rejoin-lobby": 0, "log-room": 0}

// apLobbyStep runs one of lobbySteps for one update.
func (ap *Autopilot) apLobbyStep(t *apTurn) apStatus {
	a, nv := t.a, &t.a.nv
	inLobby := a.flow.screen == screenLobby && nv.ok && nv.phase == phaseLobby && nv.slot >= 0
	switch t.st.op {
	case "say":
		if !inLobby {
			return apWait
		}
		a.emit(Intent{Kind: IntentSay, Text: strings.ReplaceAll(t.st.arg, "_", " ")})
		return apDone
	case "wait-successor":
		for _, s := range nv.succ.List {
			if inLobby && int(s.Slot) != nv.slot && nv.succ.Game == nv.setup.Game {
				ap.logf("successor named: slot %d", s.Slot)
				return apDone
			}
		}
	case "wait-chat":
		if inLobby && len(nv.chat) > 0 {
			ap.logf("chat: %s", nv.chat[len(nv.chat)-1].Text)
			return apDone
		}
	case "wait-lobby-moved":
		if inLobby && nv.moves > 0 && nv.lobbyQuiet == 0 && hostConnected(nv) {
			ap.logf("lobby moved: %s", lobbyLine(a))
			return apDone
		}
	case "rejoin-lobby":
		if a.flow.screen == screenMenu && a.saved != nil && t.retry {
			ap.pressRejoin(a, t.now)
		}
		if inLobby && hostConnected(nv) {
			ap.logf("lobby back: %s", lobbyLine(a))
			return apDone
		}
	case "log-room":
		if inLobby {
			ap.logf("room: %s", lobbyLine(a))
			return apDone
		}
	}
	return apWait
}

// hostConnected reports whether the lobby's roster names a connected host.
func hostConnected(nv *netView) bool {
	for _, p := range nv.setup.Players {
		if p.Host {
			return p.Connected
		}
	}
	return false
}

// lobbyLine is the lobby as the autopilot logs it: "me=SLOT title="…"
// setup=MODE/LIVES/WAVE chat="…|…" code="INVITE" roster=SLOT:NAME:host:ready:connected … hint="…" moved="…"" (moved:
// the lobby's last word of a host migration, shown in the hint for 4 s).
func lobbyLine(a *App) string {
	nv := &a.nv
	var chat []string
	for _, c := range nv.chat {
		chat = append(chat, c.Text)
	}
	var roster []string
	for _, p := range nv.setup.Players {
		roster = append(roster, fmt.Sprintf("%d:%s:%v:%v:%v", p.Slot, p.Name, p.Host, p.Ready, p.Connected))
	}
	st := nv.setup.Setup
	code, hint, moved := "", "", ""
	if ls, ok := a.cur.(*lobbyScreen); ok {
		code, hint, moved = ls.invite.shown, ls.hint.Label, ls.moved
	}
	return fmt.Sprintf("me=%d title=%q setup=%s/%d/%d chat=%q code=%q roster=%s hint=%q moved=%q", nv.slot, lobbyTitle(nv), st.Mode, st.Lives, st.StartWave,
		strings.Join(chat, "|"), code, strings.Join(roster, " "), hint, moved)
}
