package draw

import (
	"image/color"
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
	"rockstep/assets/outline"
	"rockstep/assets/palette"
	"rockstep/game"
)

// Text sizes in world units; faces are rescaled with the view so that the
// HUD keeps its place on the field at any window size.
const (
	sizeScore  = 30
	sizeLabel  = 15
	sizeBanner = 72
	sizeSub    = 24
)

// HUD draws the heads-up display: score, lives, wave, thrust and the
// banners in the middle of the field. It keeps its faces, labels and
// formatted numbers between frames.
type HUD struct {
	score, label, banner, sub text.GoTextFace
	scale                     float64

	// One label per place on the screen.
	scoreTitle, scoreValue, waveTitle, waveValue, thrustTitle Label
	bannerTitle, bannerSub, hintLine                          Label

	scoreOf uint32
	scoreS  string
	waveOf  uint8
	waveS   string
	titleOf uint8
	titleS  string // cached "WAVE n" of the banner
	over    string // cached line under the game-over banner
	overOf  uint32

	bestS  string // cached line under the game-over banner of a high score
	bestOf int

	thrustXOf, thrustXAt float64 // the scale thrustX was worked out at, and it

	lifeFlash int // ticks the extra-life flash has left
	lifeTitle Label
}

// lifeFlashTicks is how long the HUD flashes an extra life: 2 s.
const lifeFlashTicks = 2 * game.TicksPerSecond

// React starts the extra-life flash when slot me earns a life, and runs
// it down by a tick; call it once a tick with the tick's events.
func (h *HUD) React(events []game.Event, me int) {
	if h.lifeFlash > 0 {
		h.lifeFlash--
	}
	for _, e := range events {
		if e.Kind == game.ExtraLife && int(e.Slot) == me {
			h.lifeFlash = lifeFlashTicks
		}
	}
}

// NewHUD returns a HUD that writes in fonts f.
func NewHUD(f assets.Fonts) *HUD {
	h := &HUD{
		score:  text.GoTextFace{Source: f.Mono},
		label:  text.GoTextFace{Source: f.Regular},
		banner: text.GoTextFace{Source: f.Bold},
		sub:    text.GoTextFace{Source: f.Regular},
		scoreS: "0",
		waveS:  "0",
	}
	return h
}

// The least sizes of the HUD's text, in pixels: on a small window (the
// field at 800×600 is drawn at 0.6 pixels a unit) the HUD stays readable.
const (
	minLabelPx = 12
	minScorePx = 20
)

// thrustX returns where the thrust gauge begins, in world units: 10 right
// of its title, whose width in units grows where the title's face is held
// at its least size.
func (h *HUD) thrustX() float64 {
	if h.scale <= 0 {
		return 100 // not drawn yet
	}
	if h.thrustXOf != h.scale {
		w, _ := text.Measure("THRUST", &h.label, 0)
		h.thrustXOf, h.thrustXAt = h.scale, 28+max(72, w/h.scale+10)
	}
	return h.thrustXAt
}

// rescale sizes the faces for view v.
func (h *HUD) rescale(v View) {
	if v.Scale == h.scale {
		return
	}
	h.scale = v.Scale
	h.score.Size = max(sizeScore*v.Scale, minScorePx)
	h.label.Size = max(sizeLabel*v.Scale, minLabelPx)
	h.banner.Size = sizeBanner * v.Scale
	h.sub.Size = max(sizeSub*v.Scale, minLabelPx)
}

// Face names a face of the HUD's text, for Text.
type Face int

// The faces of Text.
const (
	FaceLabel Face = iota // labels and small lines: 15 units, at least 12 pixels
	FaceSub               // the line under a banner, news: 24 units
)

// Text draws s through label l in face f at world point (x, y) of view v
// (a point in the bands above and below the field, or on it), aligned as
// given, in colour c at opacity a.
func (h *HUD) Text(dst *ebiten.Image, v View, l *Label, s string, f Face, x, y float64, align text.Align, c color.RGBA, a float32) {
	face := &h.label
	if f == FaceSub {
		face = &h.sub
	}
	h.text(dst, v, l, s, face, x, y, align, c, a)
}

// text draws s through label l with face f at world point (x, y), aligned
// as given, in colour c at opacity a.
func (h *HUD) text(dst *ebiten.Image, v View, l *Label, s string, f *text.GoTextFace, x, y float64, align text.Align, c color.RGBA, a float32) {
	h.rescale(v)
	sx, sy := v.pt(x, y)
	l.draw(dst, s, f, sx, sy, align, c, a)
}

// Draw draws the HUD of slot me in world w onto the screen dst, in the
// bands above and below the field.
func (h *HUD) Draw(dst *ebiten.Image, r *Renderer, v View, w *game.World, me int) {
	h.rescale(v)
	r.hud.reset()
	sh := &w.Ships[me]
	col := PlayerColour(me)

	if sh.Score != h.scoreOf || h.scoreS == "" {
		h.scoreOf, h.scoreS = sh.Score, strconv.FormatUint(uint64(sh.Score), 10)
	}
	h.text(dst, v, &h.scoreTitle, "SCORE", &h.label, 28, -HUDTop+4, text.AlignStart, palette.Dim, 1)
	h.text(dst, v, &h.scoreValue, h.scoreS, &h.score, 28, -HUDTop+20, text.AlignStart, palette.Text, 1)

	// Lives left, as small ships; the one on the field counts too. An
	// extra life flashes them, with a word beside them.
	lc, fill := col, float32(0.14)
	if h.lifeFlash > 0 && (h.lifeFlash/8)%2 == 0 {
		lc, fill = palette.Core, 0.6
	}
	for k := 0; k < int(sh.Lives); k++ {
		r.outline(nil, &r.hud, outline.Ship[:], livesX+float64(k)*24, -HUDTop+38, -math.Pi/2, 0.75, -1, lc, 1, fill)
	}
	if h.lifeFlash > 0 {
		a := min(float32(h.lifeFlash)/(game.TicksPerSecond/2), 1)
		h.text(dst, v, &h.lifeTitle, "EXTRA LIFE", &h.label, livesX+float64(sh.Lives)*24, -HUDTop+30, text.AlignStart, palette.Flame, a)
	}

	if w.Wave != h.waveOf {
		h.waveOf, h.waveS = w.Wave, strconv.Itoa(int(w.Wave))
	}
	h.text(dst, v, &h.waveTitle, "WAVE", &h.label, FieldW-28, -HUDTop+4, text.AlignEnd, palette.Dim, 1)
	h.text(dst, v, &h.waveValue, h.waveS, &h.score, FieldW-28, -HUDTop+20, text.AlignEnd, palette.Text, 1)

	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	// The thrust level stays where it was set, so the player must see it.
	h.Thrust(dst, r, v, sh.Thrust, col)
}

// Thrust draws a ship's thrust level in the bottom band: its title, and
// one bar a level in colour col, the top one in flame colour.
func (h *HUD) Thrust(dst *ebiten.Image, r *Renderer, v View, thrust uint8, col color.RGBA) {
	r.hud.reset()
	thrustGauge(r, v, h.thrustX(), thrust, col)
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	h.text(dst, v, &h.thrustTitle, "THRUST", &h.label, 28, FieldH+9, text.AlignStart, palette.Dim, 1)
}

// livesX is where the practice HUD's lives begin, right of the score.
const livesX = 200

// thrustGauge adds a ship's thrust level, one bar a level in the ship's
// colour (the top one in flame colour), to r.hud in the bottom band,
// from world x x0 (see hud.thrustX), right of its title.
func thrustGauge(r *Renderer, v View, x0 float64, thrust uint8, col color.RGBA) {
	for k := 0; k < game.MaxThrust; k++ {
		x, y := v.pt(x0+float64(k)*20, FieldH+14)
		bw, bh := v.px(15), v.px(8)
		if k < int(thrust) {
			c := col
			if k >= game.MaxThrust-1 {
				c = palette.Flame
			}
			r.hud.Rect(x, y, bw, bh, Tint(c, 1))
		} else {
			r.hud.Rect(x, y, bw, bh, Tint(palette.Border, 1))
			r.hud.Rect(x+1, y+1, bw-2, bh-2, Tint(palette.Field, 1))
		}
	}
}

// Banner draws a title and a line under it in the middle of the field.
func (h *HUD) Banner(dst *ebiten.Image, v View, title, sub string, c color.RGBA, a float32) {
	h.rescale(v)
	h.text(dst, v, &h.bannerTitle, title, &h.banner, FieldW/2, FieldH/2-70, text.AlignCenter, c, a)
	if sub != "" {
		h.text(dst, v, &h.bannerSub, sub, &h.sub, FieldW/2, FieldH/2+24, text.AlignCenter, palette.Text, a)
	}
}

// Hint draws one line of small text centred at the bottom of the field, on
// a dark band that keeps it readable over rocks.
func (h *HUD) Hint(dst *ebiten.Image, r *Renderer, v View, s string, a float32) {
	h.Band(dst, r, v, &h.hintLine, s, FieldH-40, palette.Dim, a, 0.6*a)
}

// Band draws one small line of text s through label l centred at world
// height y, in colour c at opacity a, on a dark band of opacity band that
// keeps it readable over rocks: a hint, or news the game goes on under
// (a player reconnecting), clear of the scoreboard and the wave.
func (h *HUD) Band(dst *ebiten.Image, r *Renderer, v View, l *Label, s string, y float64, c color.RGBA, a, band float32) {
	h.rescale(v)
	w := float32(l.prepare(s, &h.label))
	x, sy := v.pt(FieldW/2, y)
	pad := v.px(10)
	r.hud.reset()
	r.hud.Rect(x-w/2-pad, sy-v.px(5), w+2*pad, float32(h.label.Size*1.35)+v.px(10), Tint(palette.Bars, band))
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	h.text(dst, v, l, s, &h.label, FieldW/2, y, text.AlignCenter, c, a)
}

// FinalScore returns the line under the game-over banner, formatted once
// per score.
func (h *HUD) FinalScore(score uint32) string {
	if h.over == "" || h.overOf != score {
		h.overOf, h.over = score, "final score "+strconv.FormatUint(uint64(score), 10)+"   ·   Esc for the menu"
	}
	return h.over
}

// NewBest returns the line under the game-over banner of a game that made
// the high scores at rank (0 the best).
func (h *HUD) NewBest(rank int) string {
	if h.bestS == "" || h.bestOf != rank {
		h.bestOf, h.bestS = rank, "NEW HIGH SCORE: #"+strconv.Itoa(rank+1)+"   ·   Enter plays again"
	}
	return h.bestS
}

// WaveBanner returns "WAVE n", formatted once per wave.
func (h *HUD) WaveBanner(n uint8) string {
	if h.titleS == "" || h.titleOf != n {
		h.titleOf, h.titleS = n, "WAVE "+strconv.Itoa(int(n))
	}
	return h.titleS
}

// Dim darkens the field under a banner, so that it stands out from the
// rocks drifting behind it.
func (h *HUD) Dim(dst *ebiten.Image, r *Renderer) { h.Shade(dst, r, 0.45) }

// Shade darkens the field by a (0..1: the opacity of the black laid over
// it).
func (h *HUD) Shade(dst *ebiten.Image, r *Renderer, a float32) {
	b := r.fieldRect
	r.hud.reset()
	r.hud.Rect(float32(b.Min.X), float32(b.Min.Y), float32(b.Dx()), float32(b.Dy()), Tint(palette.Bars, a))
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
}

// ClearBand lays a band of the bars' colour across the field from screen
// row y0 to y1, opaque, with edges of feather pixels fading out above and
// below: the menus draw their title over it, so that no rock drifting
// by ever crosses the title.
func (h *HUD) ClearBand(dst *ebiten.Image, r *Renderer, y0, y1, feather float32) {
	b := r.fieldRect
	x, w := float32(b.Min.X), float32(b.Dx())
	r.hud.reset()
	r.hud.Rect(x, y0, w, y1-y0, Tint(palette.Bars, 1))
	const steps = 4 // strips of each fading edge
	step := feather / steps
	for i := range steps {
		a := 1 - float32(i+1)/(steps+1)
		r.hud.Rect(x, y0-float32(i+1)*step, w, step, Tint(palette.Bars, a))
		r.hud.Rect(x, y1+float32(i)*step, w, step, Tint(palette.Bars, a))
	}
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
}
