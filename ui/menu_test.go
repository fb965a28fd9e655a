package ui

import (
	"image/color"
	"testing"

	"rockstep/assets/palette"
)

// The menus' drifting rocks are dimmer than the dimmest text over them,
// the subtitle, even with their glow added (glowAlpha of the line again
// in ui/draw: 0.22).
func TestMenuRocksAreDimmerThanTheSubtitle(t *testing.T) {
	luma := func(c color.RGBA, k float64) float64 {
		return k * (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B))
	}
	rock := luma(palette.Rock, (1+0.22)*(1-backdropShade))
	sub := luma(palette.Dim, 1)
	if rock*1.5 > sub {
		t.Errorf("the menu's rocks at luma %.0f, the subtitle at %.0f: want the rocks at most two thirds as bright", rock, sub)
	}
}
