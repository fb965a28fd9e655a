package draw

import (
	"image"
	"math"

	"rockstep/game"
	"rockstep/game/fixed"
)

// Field size in world units, as floats for drawing.
var (
	FieldW = toUnits(game.FieldW)
	FieldH = toUnits(game.FieldH)
)

// toUnits converts a Q16.16 number to world units.
func toUnits(n fixed.Num) float64 { return float64(n) / float64(fixed.One) }

// toRadians converts an engine angle (65536 a turn, clockwise on screen) to
// radians in the same direction.
func toRadians(a float64) float64 { return a * (2 * math.Pi / fixed.Turn) }

// View maps world units onto the screen: the whole field, scaled uniformly
// to fit the screen with the HUD's bands above and below it, centred,
// with bars on the sides that do not match its aspect.
type View struct {
	Scale  float64 // screen pixels per world unit
	X0, Y0 float64 // screen position of the field's top-left corner, pixels
}

// The HUD's bands, in world units: hudTop above the field (the score or
// the scoreboard, lives, the wave) and hudBottom below it (thrust, the
// connection). The world is never drawn in them, so nothing flies over
// the numbers a player reads; they are part of the letterboxed picture,
// so they scale with the field and keep their place beside it.
const (
	HUDTop    = 64
	hudBottom = 36
)

// FitView returns the view of the field on a screen of w×h pixels: the
// field and the HUD's bands, as large as fits, centred.
func FitView(w, h float64) View {
	all := FieldH + HUDTop + hudBottom
	s := math.Min(w/FieldW, h/all)
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		s = 1
	}
	return View{Scale: s, X0: (w - FieldW*s) / 2, Y0: (h-all*s)/2 + HUDTop*s}
}

// FitViewAbove returns the view of the field on a screen of w×h pixels
// whose bottom below pixels are taken (by the replay's control bar): the
// field and the top band fitted above them, centred; the bar stands for
// the bottom band.
func FitViewAbove(w, h, below float64) View {
	all := FieldH + HUDTop
	room := h - below
	s := math.Min(w/FieldW, room/all)
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return FitView(w, h)
	}
	return View{Scale: s, X0: (w - FieldW*s) / 2, Y0: (room-all*s)/2 + HUDTop*s}
}

// MenuView returns the view of the field behind the menus on a screen of
// w×h pixels: the field alone, as large as fits, centred (the menus have
// no HUD).
func MenuView(w, h float64) View {
	s := math.Min(w/FieldW, h/FieldH)
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		s = 1
	}
	return View{Scale: s, X0: (w - FieldW*s) / 2, Y0: (h - FieldH*s) / 2}
}

// pt returns the screen position of world point (x, y), in pixels.
func (v View) pt(x, y float64) (float32, float32) {
	return float32(v.X0 + x*v.Scale), float32(v.Y0 + y*v.Scale)
}

// px returns a world length in screen pixels.
func (v View) px(units float64) float32 { return float32(units * v.Scale) }

// rect returns the screen rectangle of the field, rounded inward to whole
// pixels.
func (v View) rect() image.Rectangle {
	return image.Rect(
		int(math.Ceil(v.X0)), int(math.Ceil(v.Y0)),
		int(math.Floor(v.X0+FieldW*v.Scale)), int(math.Floor(v.Y0+FieldH*v.Scale)),
	)
}

// wrapCopies writes into dst the offsets, in world units, at which an
// object at (x, y) with the given radius must be drawn so that the part of
// it that crosses an edge of the field shows at the opposite edge. The
// first offset is always (0, 0); it returns how many it wrote (1 to 4).
func wrapCopies(x, y, radius float64, dst *[4][2]float64) int {
	var dx, dy float64
	switch {
	case x < radius:
		dx = FieldW
	case x > FieldW-radius:
		dx = -FieldW
	}
	switch {
	case y < radius:
		dy = FieldH
	case y > FieldH-radius:
		dy = -FieldH
	}
	dst[0] = [2]float64{0, 0}
	n := 1
	if dx != 0 {
		dst[n] = [2]float64{dx, 0}
		n++
	}
	if dy != 0 {
		dst[n] = [2]float64{0, dy}
		n++
	}
	if dx != 0 && dy != 0 {
		dst[n] = [2]float64{dx, dy}
		n++
	}
	return n
}
