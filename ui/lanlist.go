package ui

import (
	"fmt"
	"slices"
	"strings"

	"rockstep/net/lan"
	"rockstep/net/wire"
)

// lanRow is one line of the join screen's LAN list.
type lanRow struct {
	Game     lan.Game
	Joinable bool   // the Join button is enabled
	Rejoin   bool   // the game this player crashed out of: Rejoin takes the kept slot back
	Action   string // the button's label: Join, Watch, Rejoin, Full, Incompatible
	Players  string // "2/8"
	State    string // "in lobby", "playing", "finished"
}

// lanRows turns the games a discovery lists into rows: one per game id
// (a host heard on two addresses is one game), joinable games first, then
// by name and address; games of another protocol version and full lobbies
// greyed out and not joinable. Running games can be watched, or rejoined
// if it is the game kept in rejoin (nil: none).
func lanRows(games []lan.Game, rejoin *savedSession) []lanRow {
	byID := make(map[string]int, len(games))
	rows := make([]lanRow, 0, len(games))
	for _, g := range games {
		if i, ok := byID[g.ID]; ok && g.ID != "" {
			if g.Seen.After(rows[i].Game.Seen) {
				rows[i] = newLANRow(g)
			}
			continue
		}
		byID[g.ID] = len(rows)
		rows = append(rows, newLANRow(g))
	}
	for i := range rows {
		if rejoin != nil && rows[i].Game.State == wire.StateRunning.String() && rows[i].Game.Compatible && rejoin.matches(rows[i].Game) {
			rows[i].Action, rows[i].Joinable, rows[i].Rejoin = "Rejoin", true, true
		}
	}
	slices.SortStableFunc(rows, func(a, b lanRow) int {
		if a.Rejoin != b.Rejoin {
			if a.Rejoin {
				return -1
			}
			return 1
		}
		if a.Joinable != b.Joinable {
			if a.Joinable {
				return -1
			}
			return 1
		}
		if c := strings.Compare(strings.ToLower(a.Game.Name), strings.ToLower(b.Game.Name)); c != 0 {
			return c
		}
		if c := a.Game.Addr.Compare(b.Game.Addr); c != 0 {
			return c
		}
		return strings.Compare(a.Game.ID, b.Game.ID)
	})
	return rows
}

func newLANRow(g lan.Game) lanRow {
	r := lanRow{Game: g, Players: fmt.Sprintf("%d/%d", g.Players, g.Max)}
	switch g.State {
	case wire.StateSetup.String():
		r.State = "in lobby"
	case wire.StateRunning.String():
		r.State = "playing"
	case wire.StateFinished.String():
		r.State = "finished"
	default:
		r.State = g.State
	}
	switch {
	case !g.Compatible:
		r.Action = fmt.Sprintf("v%d", g.Version)
		r.State = fmt.Sprintf("other version (v%d)", g.Version)
	case g.State == wire.StateRunning.String():
		r.Action, r.Joinable = "Watch", true
	case g.Players >= g.Max:
		r.Action = "Full"
	default:
		r.Action, r.Joinable = "Join", true
	}
	return r
}

// lanSignature is a digest of rows as displayed: the join screen rebuilds
// its list only when it changes.
func lanSignature(rows []lanRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s|%s|%s|%s|%s|%s|%s\n", r.Game.ID, r.Game.Addr, r.Game.Name, r.Game.Host, r.Players, r.State, r.Action)
	}
	return b.String()
}

// matches reports whether g is the kept session's game: by its LAN id, or
// by its address when it was joined by address.
func (s *savedSession) matches(g lan.Game) bool {
	if s.GameID != "" {
		return g.ID == s.GameID
	}
	return g.Addr.String() == s.Addr
}
