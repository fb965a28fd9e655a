package draw

import (
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/outline"
	"rockstep/assets/palette"
	"rockstep/game"
)

// boardLine is one player's line of the scoreboard, with its formatted
// score kept between frames.
type boardLine struct {
	name, score Label
	of          uint32
	s           string
	// The name as drawn, ellipsised to leave room for the score: fitted
	// from nameOf at scale fitScale.
	nameOf, fit string
	fitScale    float64
}

// Places in a scoreboard's entry, from its left end, in world units;
// entries are boardEntryW apart, two to a column, in the top band.
const (
	boardNameX  = 14  // left end of the name
	boardScoreX = 200 // right end of the score
	boardGap    = 12  // the least space between name and score
	boardLivesX = 214 // a ship, and the lives left beside it
	boardEntryW = 270
	boardRowH   = 28
)

// fitName returns name ellipsised to end boardGap short of the score,
// measured in h's label face, kept until the name, score or scale change.
func (l *boardLine) fitName(h *HUD, name string) string {
	if l.fit != "" && l.nameOf == name && l.fitScale == h.scale {
		return l.fit
	}
	sw, _ := text.Measure(l.s, &h.label, 0)
	room := (boardScoreX-boardNameX-boardGap)*h.scale - sw
	l.nameOf, l.fitScale, l.fit = name, h.scale, Ellipsis(name, &h.label, room)
	return l.fit
}

// Scoreboard is every player's entry in the top band of a network game
// or a replay (colour, name, score, lives), two to a column from the
// left, and the wave at the top right, with its formatted scores kept
// between frames.
type Scoreboard struct {
	lines   [game.MaxPlayers]boardLine
	lives   [game.MaxPlayers]Label
	livesS  [game.MaxPlayers]string
	livesOf [game.MaxPlayers]uint8
	columns int // of the last Draw
}

// Columns returns how many columns of entries the last Draw used.
func (b *Scoreboard) Columns() int { return b.columns }

// Draw draws the scoreboard of world w; me (or -1) is the local player,
// name and colour give a slot's name and palette index.
func (b *Scoreboard) Draw(dst *ebiten.Image, r *Renderer, h *HUD, v View, w *game.World, me int, name func(int) string, colour func(int) int) {
	h.rescale(v)
	r.hud.reset()
	type pending struct {
		i    int
		x, y float64
	}
	var rows [game.MaxPlayers]pending
	n := 0
	for i := range w.Ships {
		sh := &w.Ships[i]
		if w.Setup.Players&(1<<i) == 0 {
			continue
		}
		col := PlayerColour(colour(i))
		a := float32(1)
		if !sh.Present {
			a = 0.4
		}
		x, y := 24+float64(n/2)*boardEntryW, -HUDTop+6+float64(n%2)*boardRowH
		x0, y0 := v.pt(x, y+3)
		r.hud.Rect(x0, y0, v.px(6), v.px(20), Tint(col, a))
		r.outline(nil, &r.hud, outline.Ship[:], x+boardLivesX, y+13, -math.Pi/2, 0.5, -1, col, a, 0.14)
		rows[n] = pending{i, x, y}
		n++
	}
	b.columns = (n + 1) / 2
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	for _, p := range rows[:n] {
		sh := &w.Ships[p.i]
		l := &b.lines[p.i]
		if l.s == "" || l.of != sh.Score {
			l.of, l.s = sh.Score, strconv.FormatUint(uint64(sh.Score), 10)
			l.fit = "" // the score's width changed
		}
		c := palette.Text
		if p.i == me {
			c = PlayerColour(colour(p.i))
		}
		h.text(dst, v, &l.name, l.fitName(h, name(p.i)), &h.label, p.x+boardNameX, p.y+3, text.AlignStart, c, 1)
		h.text(dst, v, &l.score, l.s, &h.label, p.x+boardScoreX, p.y+3, text.AlignEnd, palette.Text, 1)
		if b.livesS[p.i] == "" || b.livesOf[p.i] != sh.Lives {
			b.livesOf[p.i], b.livesS[p.i] = sh.Lives, "×"+strconv.Itoa(int(sh.Lives))
		}
		h.text(dst, v, &b.lives[p.i], b.livesS[p.i], &h.label, p.x+boardLivesX+10, p.y+3, text.AlignStart, palette.Dim, 1)
	}
	if w.Wave != h.waveOf {
		h.waveOf, h.waveS = w.Wave, strconv.Itoa(int(w.Wave))
	}
	h.text(dst, v, &h.waveTitle, "WAVE", &h.label, FieldW-28, -HUDTop+4, text.AlignEnd, palette.Dim, 1)
	h.text(dst, v, &h.waveValue, h.waveS, &h.score, FieldW-28, -HUDTop+20, text.AlignEnd, palette.Text, 1)
}
