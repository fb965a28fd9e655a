package ui

import (
	"slices"
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// resultsScreen shows the scores of the game that just ended, the winner
// highlighted in versus, and offers a rematch or the main menu.
type resultsScreen struct {
	a     *App
	top   *widget.Container
	world game.World // the final world, drawn frozen behind the table
	ticks uint32
}

// resultLine is one player's line of the results.
type resultLine struct {
	slot   int
	name   string
	score  uint32
	kills  uint16
	lives  uint8
	winner bool
}

// results returns the players of w, best score first (the versus winner
// first of all), named by name.
func results(w *game.World, name func(slot int) string) []resultLine {
	var lines []resultLine
	for i := range w.Ships {
		sh := &w.Ships[i]
		if w.Setup.Players&(1<<i) == 0 {
			continue
		}
		lines = append(lines, resultLine{
			slot: i, name: name(i), score: sh.Score, kills: sh.Kills, lives: sh.Lives,
			winner: w.Setup.Mode == game.Versus && w.Over && int(w.Winner) == i,
		})
	}
	slices.SortStableFunc(lines, func(a, b resultLine) int {
		switch {
		case a.winner != b.winner:
			if a.winner {
				return -1
			}
			return 1
		case a.score != b.score:
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.slot - b.slot
	})
	return lines
}

func newResultsScreen(a *App) *resultsScreen {
	t := a.theme()
	s := &resultsScreen{a: a, world: a.nv.world}
	nv := &a.nv
	lines := results(&s.world, nv.playerName)
	versus := s.world.Setup.Mode == game.Versus

	col := t.panelColumn(14, widget.ContainerOpts.WidgetOpts(minSize(620, 0)))
	title := "GAME OVER"
	sub := "Co-op, reached wave " + strconv.Itoa(int(s.world.Wave))
	switch {
	case versus && len(lines) > 0 && lines[0].winner:
		title = lines[0].name + " wins"
		sub = "Versus, last ship standing"
	case versus:
		sub = "Versus, no winner"
	case !s.world.Over:
		title = "GAME ENDED"
		sub = "The host ended the game at wave " + strconv.Itoa(int(s.world.Wave))
	}
	col.AddChild(t.text(title, &t.titleFace, colText, centred()))
	col.AddChild(t.dim(sub, centred()))

	heads := []string{"", "PLAYER", "SCORE", "LIVES"}
	stretch := []bool{false, true, false, false}
	if versus {
		heads = append(heads, "KILLS")
		stretch = append(stretch, false)
	}
	table := grid(stretch, 16, 6, widget.ContainerOpts.WidgetOpts(stretchRow()))
	for i, h := range heads {
		w := 80
		if i == 0 {
			w = 20
		}
		table.AddChild(t.text(h, &t.smallFace, colDim, minSize(w, 0)))
	}
	mid := widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})
	for rank, l := range lines {
		c := colText
		face := &t.bodyFace
		if l.winner || (!versus && rank == 0) {
			c, face = colWarn, &t.headingFace
		}
		sw := widget.NewContainer(widget.ContainerOpts.BackgroundImage(swatchImage(playerColour(s.colourOf(l.slot)))), widget.ContainerOpts.WidgetOpts(minSize(20, 20),
			widget.WidgetOpts.LayoutData(widget.GridLayoutData{MaxWidth: 20, MaxHeight: 20, VerticalPosition: widget.GridLayoutPositionCenter})))
		name := l.name
		if l.slot == nv.slot {
			name += "  (you)"
		}
		if l.winner {
			name = "★ " + name
		}
		table.AddChild(sw, t.text(name, face, c, mid), t.text(strconv.FormatUint(uint64(l.score), 10), face, c, mid), t.text(strconv.Itoa(int(l.lives)), &t.bodyFace, colDim, mid))
		if versus {
			table.AddChild(t.text(strconv.Itoa(int(l.kills)), &t.bodyFace, colDim, mid))
		}
	}
	col.AddChild(table)
	buttons := row(12, widget.ContainerOpts.WidgetOpts(centred()))
	buttons.AddChild(
		t.button("Main menu", a.emit, Intent{Kind: IntentMainMenu}, minSize(180, 0)),
		t.button("Back to lobby", a.emit, Intent{Kind: IntentRematch}, minSize(200, 0)),
	)
	col.AddChild(buttons)
	s.top = screenRoot(col, false)
	return s
}

func (s *resultsScreen) colourOf(slot int) int {
	for _, p := range s.a.nv.setup.Players {
		if int(p.Slot) == slot {
			return int(p.Colour)
		}
	}
	return slot
}

func (s *resultsScreen) id() screenID            { return screenResults }
func (s *resultsScreen) root() *widget.Container { return s.top }
func (s *resultsScreen) update(Intents) error {
	s.ticks++
	return nil
}

func (s *resultsScreen) draw(dst *ebiten.Image, v view, t float64) {
	e := s.a.env
	r := e.draw
	field := r.begin(dst, v)
	r.drawBackdrop(dst, field, s.ticks)
	r.drawWorld(field, &s.world, &s.world, 1)
	e.hud.dim(field, r)
}
