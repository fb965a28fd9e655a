package ui

import (
	"log"
	"strconv"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/internal/highscore"
	"rockstep/ui/draw"
)

// scoresMark is the entry a game just made in the high scores, to be
// shown lit: rank -1 is none.
type scoresMark struct {
	kind highscore.Kind
	rank int
}

// loadScores reads the high scores kept beside the settings; a damaged
// file gives empty tables and a line on the main menu.
func (a *App) loadScores() {
	if a.settingsDir == "" {
		return
	}
	t, warning := highscore.Load(a.settingsDir)
	if warning != "" {
		log.Printf("rockstep: %s", warning)
		if a.flow.notice == "" {
			a.flow.notice = warning
		}
	}
	a.scores = t
}

// recordScore enters the local player's score at the end of world w in
// table kind and saves the tables; it returns the rank (0 is the best) or
// -1 if the score did not enter. key names the game, so that a game is
// entered once however often its end is shown (the same rank again).
func (a *App) recordScore(kind highscore.Kind, w *game.World, me int, key string) int {
	if me < 0 || me >= game.MaxPlayers {
		return -1
	}
	if key == a.recorded {
		return a.recordedRank
	}
	rank := a.scores.Add(kind, highscore.FromWorld(w, me, a.settings.Name, time.Now()))
	a.recorded, a.recordedRank = key, rank
	if rank >= 0 && a.settingsDir != "" {
		if err := highscore.Save(a.settingsDir, a.scores); err != nil {
			log.Printf("rockstep: %v", err)
		}
	}
	return rank
}

// scoresScreen shows both high-score tables, the entry just made lit.
type scoresScreen struct {
	a   *App
	top *widget.Container
	// shown is the tables as the player reads them, a line each, for tests.
	shown []string
}

func newScoresScreen(a *App) *scoresScreen {
	t := a.theme()
	s := &scoresScreen{a: a}
	mark := a.flow.scoresMark
	col := t.panelColumn(14, widget.ContainerOpts.WidgetOpts(t.size(940, 0)))
	title := "HIGH SCORES"
	if mark.rank >= 0 {
		title = "NEW HIGH SCORE"
	}
	col.AddChild(t.text(title, &t.titleFace, palette.Text, centred()))
	col.AddChild(t.dim("the ten best games of this machine", centred()))
	tables := t.hbox(32, widget.ContainerOpts.WidgetOpts(centred()))
	for _, k := range []highscore.Kind{highscore.Practice, highscore.Coop} {
		box := t.vbox(8, nil)
		box.AddChild(t.heading(map[highscore.Kind]string{highscore.Practice: "Practice", highscore.Coop: "Co-op"}[k]))
		table := t.grid([]bool{false, true, false, false, false}, 14, 4, widget.ContainerOpts.WidgetOpts(t.size(420, 0)))
		for i, h := range []string{"", "NAME", "SCORE", "WAVE", "DATE"} {
			table.AddChild(t.text(h, &t.smallFace, palette.Dim, t.size([]int{24, 130, 76, 44, 90}[i], 0)))
		}
		list := a.scores.Of(k)
		for i, e := range list {
			c := palette.Text
			if mark.rank == i && mark.kind == k {
				c = colWarn
			}
			cells := []string{strconv.Itoa(i+1) + ".", e.Name, strconv.FormatUint(uint64(e.Score), 10), strconv.Itoa(int(e.Wave)), e.Date.Local().Format("2006-01-02")}
			for j, cell := range cells {
				face := &t.bodyFace
				if j == 0 || j >= 3 {
					face = &t.smallFace
				}
				table.AddChild(t.text(cell, face, c))
			}
			s.shown = append(s.shown, k.String()+" "+cells[0]+" "+e.Name+" "+cells[2]+" "+cells[3])
		}
		box.AddChild(table)
		if len(list) == 0 {
			box.AddChild(t.dim("no games yet"))
		}
		tables.AddChild(box)
	}
	col.AddChild(tables)
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(centred()))
	back := "Main menu"
	if a.flow.scoresBack == screenResults {
		back = "Back to the results"
	}
	buttons.AddChild(t.button(back, a.emit, Intent{Kind: IntentBack}, t.size(220, 0)))
	if a.flow.scoresBack == screenPractice {
		buttons.AddChild(t.button("Play again", a.emit, Intent{Kind: IntentPractice}, t.size(180, 0)))
	}
	col.AddChild(buttons)
	s.top = t.screenRoot(col, false)
	return s
}

func (s *scoresScreen) id() screenID            { return screenScores }
func (s *scoresScreen) root() *widget.Container { return s.top }
func (s *scoresScreen) update(Intents) error {
	s.a.backdrop.step()
	return nil
}
func (s *scoresScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}
