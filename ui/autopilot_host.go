package ui

import (
	"strings"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// hostStep runs the autopilot's steps about who hosts (the end-to-end
// test of a host's crash and Rejoin: docs/ARCHITECTURE.md, "One host"),
// and reports whether st is done.
func (ap *Autopilot) hostStep(a *App, st apStep, in *Intents, now time.Time, retry bool) bool {
	nv := &a.nv
	if a.flow.screen == screenPlay {
		in.Ship = apKeys(a.frames) // keep the ship flying while the step waits
		ap.playing(nv, now)
	}
	switch st.op {
	case "log-host":
		if !nv.ok || len(nv.setup.Players) == 0 || (a.flow.screen != screenPlay && a.flow.screen != screenLobby) {
			return false
		}
		host, name := -1, ""
		for _, p := range nv.setup.Players {
			if p.Host {
				host, name = int(p.Slot), p.Name
			}
		}
		ap.logf("host: me=%d powers=%v roster=%d %s room-here=%v paused=%v (roster revision %d room %d: %+v)", nv.slot, nv.host, host, name, nv.roomHere, nv.status.Child == wire.ChildPaused, nv.setup.Revision, nv.setup.RoomID, nv.setup.Players)
		return true
	case "pause":
		if a.flow.screen != screenPlay || !nv.ok || nv.phase != phasePlaying {
			return false
		}
		ap.logf("asking the room to pause the game")
		a.emit(Intent{Kind: IntentPause, Paused: true})
		return true
	case "wait-back":
		// The news the play screen shows: a player is back. (Not the
		// roster: in the first frames after a move it is still the old
		// room's, every player connected.)
		if ps, ok := a.cur.(*netPlayScreen); ok && ps.newsLeft > 0 && ps.newsKind == newsRejoined {
			ap.logf("news: %s", ps.news)
			return true
		}
		return false
	case "wait-refused":
		refused := ap.roomRefused(a)
		if refused > 0 {
			ap.logf("room here refused %d host command(s) from another player", refused)
		}
		return refused > 0
	case "end-game":
		if a.flow.screen != screenPlay {
			return a.flow.screen == screenResults
		}
		if nv.host && retry && !nv.ended {
			ap.lastTry = now
			ap.logf("ending the game for everyone")
			a.emit(Intent{Kind: IntentEndGame})
		}
		return nv.ended
	case "log-lobby":
		ls, ok := a.cur.(*lobbyScreen)
		if !ok || a.flow.screen != screenLobby || ls.where.Label == "" || ls.title.Label == "Connecting…" {
			return false
		}
		ap.logf("lobby: where=%q key=%q hint=%q", ls.where.Label, ls.hostKey.Label, ls.hint.Label)
		return true
	case "rejoin-ended":
		switch {
		case a.flow.screen == screenMenu && a.saved != nil && retry:
			ap.pressRejoin(a, now)
		case a.flow.screen == screenResults && a.flow.awayEnded:
			rs, ok := a.cur.(*resultsScreen)
			if !ok {
				return false
			}
			ap.logf("results digest=%016x %s", nv.results.Digest(), strings.Join(rs.shown, " | "))
			ap.logf("results were away's")
			return true
		}
	}
	return false
}

// roomRefused returns how many commands the room this machine runs
// dropped as another's (room.DropSpoof): a guest's pause or end among
// them. 0 when no room runs here.
func (ap *Autopilot) roomRefused(a *App) uint64 {
	g := a.nv.g
	if g == nil {
		return 0
	}
	if g.h != nil {
		return g.h.Stats().Dropped[room.DropReasonName(room.DropSpoof)]
	}
	c := g.client()
	if c == nil {
		return 0
	}
	st, ok := c.HostedStats()
	if !ok {
		return 0
	}
	return st.Dropped[room.DropReasonName(room.DropSpoof)]
}
