package ui

import (
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/internal/highscore"
	"rockstep/ui/draw"
)

// resultsScreen shows the results of the game that just ended, read from
// the confirmed world at the turn it ended (the same table on every
// machine), the winner first in versus, and offers a rematch or the main
// menu.
type resultsScreen struct {
	a     *App
	top   *widget.Container
	world game.World // the final world, drawn frozen behind the table
	ticks uint32
	// shown is the table as the player reads it, a line each: the title,
	// the subtitle, then "rank. name score lives [kills]" per player. The
	// end-to-end test compares it between machines.
	shown []string
	// rematch goes back to the lobby; gone says why it cannot, once the
	// room is gone (flow.roomGone).
	rematch *widget.Button
	gone    *widget.Text
}

// awayResultsLine heads the results of a game that ended while this
// player was away (it rejoined after the end: flow.awayEnded).
const awayResultsLine = "The game ended while you were away"

// resultLine is one player's line of the results.
type resultLine struct {
	slot   int
	name   string
	score  uint32
	kills  uint16
	lives  uint8
	left   bool
	away   bool // sent away for straying (left too)
	winner bool
}

// results returns the lines of r, named by name where the table has no
// name (a game from before names were kept).
func results(r *game.Results, name func(slot int) string) []resultLine {
	var lines []resultLine
	for _, l := range r.Table() {
		n := l.Name
		if n == "" {
			n = name(int(l.Slot))
		}
		lines = append(lines, resultLine{slot: int(l.Slot), name: n, score: l.Score, kills: l.Kills, lives: l.Lives, left: l.Left, winner: l.Winner})
	}
	return lines
}

// markSentAway marks the lines of the players who left because the room
// sent them away for straying (away[slot]), and returns lines.
func markSentAway(lines []resultLine, away [game.MaxPlayers]bool) []resultLine {
	for i := range lines {
		if l := &lines[i]; l.left && l.slot >= 0 && l.slot < len(away) && away[l.slot] {
			l.away = true
		}
	}
	return lines
}

// mark is what the table shows beside the name of a player who did not
// play to the end: sent away, or left (by choice or dropped).
func (l resultLine) mark() string {
	switch {
	case l.away:
		return "  (sent away)"
	case l.left:
		return "  (left)"
	}
	return ""
}

// resultsTitle returns the title and subtitle of a results table.
func resultsTitle(r *game.Results, lines []resultLine) (title, sub string) {
	versus := r.Mode == game.Versus
	switch {
	case !r.Over:
		title = "GAME ENDED"
		sub = "The host ended the game at wave " + strconv.Itoa(int(r.Wave))
	case versus && len(lines) > 0 && lines[0].winner:
		title = lines[0].name + " wins"
		sub = "Versus, last ship standing"
	case versus:
		title, sub = "GAME OVER", "Versus, no winner"
	default:
		title, sub = "GAME OVER", "Co-op, reached wave "+strconv.Itoa(int(r.Wave))
	}
	if !versus {
		// Co-op is played as a team: its score is the sum.
		sub += "  ·  team score " + strconv.FormatUint(teamScore(lines), 10)
	}
	return title, sub
}

// teamScore is the sum of the players' scores.
func teamScore(lines []resultLine) uint64 {
	var n uint64
	for _, l := range lines {
		n += uint64(l.score)
	}
	return n
}

// Widths the results fit names into, in design pixels.
const (
	resultsTitleWidth = 760 // "NAME wins"
	resultsNameWidth  = 300 // a player's name in the table
)

// resultRanks returns the rank of each line, from 1: lines listed alike
// (the same score, and both or neither the versus winner) share a rank,
// and the next rank counts them all ("1, 1, 3").
func resultRanks(lines []resultLine) []int {
	ranks := make([]int, len(lines))
	for i, l := range lines {
		if i > 0 && l.score == lines[i-1].score && l.winner == lines[i-1].winner {
			ranks[i] = ranks[i-1]
		} else {
			ranks[i] = i + 1
		}
	}
	return ranks
}

func newResultsScreen(a *App) *resultsScreen {
	t := a.theme()
	nv := &a.nv
	s := &resultsScreen{a: a, world: nv.world}
	res := nv.results
	lines := markSentAway(results(&res, nv.playerName), nv.sentAway)
	versus := res.Mode == game.Versus
	title, sub := resultsTitle(&res, lines)
	s.shown = append(s.shown, title, sub)

	col := t.panelColumn(14, widget.ContainerOpts.WidgetOpts(t.size(620, 0)))
	col.AddChild(t.text(draw.Ellipsis(title, t.titleFace, float64(t.px(resultsTitleWidth))), &t.titleFace, palette.Text, centred()))
	col.AddChild(t.dim(sub, centred()))
	if a.flow.awayEnded {
		// Back after a crash, the game over: say why these results come
		// now (the table itself is the same as on every other machine).
		col.AddChild(t.text(awayResultsLine, &t.smallFace, colWarn, centred()))
	}

	col.AddChild(s.table(t, lines, versus))
	// A co-op game enters the local player's own score in the high scores.
	best := -1
	if res.Mode == game.Coop {
		best = a.recordScore(highscore.Coop, &s.world, nv.slot, "co-op "+strconv.FormatUint(s.world.Setup.Seed, 10)+" "+strconv.FormatUint(uint64(s.world.Tick), 10))
	}
	// The line of a new high score, or a blank one in its place.
	record := " "
	if best >= 0 {
		record = "A new co-op high score for you: #" + strconv.Itoa(best+1)
	}
	col.AddChild(t.text(record, &t.bodyFace, colWarn, centred()))
	s.gone = t.text(" ", &t.smallFace, colWarn, centred()) // " ": a line's height kept for the news
	col.AddChild(s.gone)
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(centred()))
	s.rematch = t.button("Back to lobby", a.emit, Intent{Kind: IntentRematch}, t.size(200, 0))
	buttons.AddChild(t.button("Main menu", a.emit, Intent{Kind: IntentMainMenu}, t.size(180, 0)), s.rematch)
	if best >= 0 {
		buttons.AddChild(t.button("High scores", a.emit, Intent{Kind: IntentOpenScores, Mark: scoresMark{kind: highscore.Coop, rank: best}}, t.size(180, 0)))
	}
	col.AddChild(buttons)
	s.top = t.screenRoot(col, false)
	return s
}

// table returns the results' table, a row a line and blank rows up to
// the most players a game has, and notes each row in s.shown.
func (s *resultsScreen) table(t *theme, lines []resultLine, versus bool) *widget.Container {
	nv := &s.a.nv
	heads := []string{"", "", "PLAYER", "SCORE", "LIVES"}
	stretch := []bool{false, false, true, false, false}
	if versus {
		heads = append(heads, "KILLS")
		stretch = append(stretch, false)
	}
	table := t.grid(stretch, 16, 6, widget.ContainerOpts.WidgetOpts(stretchRow()))
	for i, h := range heads {
		w := 80
		if i < 2 {
			w = 20
		}
		table.AddChild(t.text(h, &t.smallFace, palette.Dim, t.size(w, 0)))
	}
	mid := widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})
	ranks := resultRanks(lines)
	for i, l := range lines {
		c := palette.Text
		face := &t.bodyFace
		// Only a versus game has a winner; co-op players share one result.
		winner := versus && l.winner
		if winner {
			c, face = colWarn, &t.headingFace
		}
		// The winner's star (drawn: the fonts have no ★), else the rank,
		// the same for equal scores.
		var mark widget.PreferredSizeLocateableWidget
		if winner {
			mark = widget.NewGraphic(widget.GraphicOpts.Image(t.starImage()), widget.GraphicOpts.WidgetOpts(
				widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})))
		} else {
			mark = t.text(strconv.Itoa(ranks[i]), &t.smallFace, palette.Dim, mid)
		}
		sw := widget.NewContainer(widget.ContainerOpts.BackgroundImage(t.swatchImage(draw.PlayerColour(s.colourOf(l.slot)))), widget.ContainerOpts.WidgetOpts(t.size(20, 20),
			widget.WidgetOpts.LayoutData(widget.GridLayoutData{MaxWidth: t.px(20), MaxHeight: t.px(20), VerticalPosition: widget.GridLayoutPositionCenter})))
		name := draw.Ellipsis(l.name, *face, float64(t.px(resultsNameWidth)))
		name += l.mark()
		if l.slot == nv.slot {
			name += "  (you)"
		}
		score, lives := strconv.FormatUint(uint64(l.score), 10), strconv.Itoa(int(l.lives))
		table.AddChild(mark, sw, t.text(name, face, c, mid), t.text(score, face, c, mid), t.text(lives, &t.bodyFace, palette.Dim, mid))
		line := strconv.Itoa(ranks[i]) + ". " + l.name + " " + score + " " + lives
		if versus {
			kills := strconv.Itoa(int(l.kills))
			table.AddChild(t.text(kills, &t.bodyFace, palette.Dim, mid))
			line += " " + kills
		}
		s.shown = append(s.shown, line)
	}
	// Rows left blank up to the most players a game has, so that the
	// buttons under the table are where they were after any game.
	for range game.MaxPlayers - len(lines) {
		table.AddChild(t.text(" ", &t.smallFace, palette.Dim, mid), widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(20, 20))),
			t.text(" ", &t.bodyFace, palette.Dim, mid), t.text(" ", &t.bodyFace, palette.Dim, mid), t.text(" ", &t.bodyFace, palette.Dim, mid))
		if versus {
			table.AddChild(t.text(" ", &t.bodyFace, palette.Dim, mid))
		}
	}
	return table
}

func (s *resultsScreen) colourOf(slot int) int {
	for _, p := range s.a.nv.setup.Players {
		if int(p.Slot) == slot {
			return int(p.Colour)
		}
	}
	return slot
}

// initialFocus implements focusStart: Back to lobby while it is offered,
// so that Enter after a game stays in the room; else Main menu.
func (s *resultsScreen) initialFocus() widget.Focuser {
	if s.rematch.GetWidget().Disabled {
		return nil
	}
	return s.rematch
}

func (s *resultsScreen) id() screenID            { return screenResults }
func (s *resultsScreen) root() *widget.Container { return s.top }
func (s *resultsScreen) update(Intents) error {
	s.ticks++
	gone := s.a.flow.roomGone
	if gone == "" {
		gone = " " // the line keeps its height
	}
	if gone != s.gone.Label {
		s.gone.Label = gone
		enable(s.rematch, gone == " ")
		s.top.RequestRelayout()
	}
	return nil
}

func (s *resultsScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	e := s.a.env
	r := e.draw
	field := r.Begin(dst, v)
	r.DrawBackdrop(dst, field, s.ticks)
	r.DrawWorld(field, &s.world, &s.world, 1)
	e.hud.Dim(field, r)
}
